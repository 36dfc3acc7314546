import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plugin, Rollup } from 'vite';

/**
 * For the pages people open first by address, a copy of index.html that also preloads the page's own chunks:
 * `routes/<first path segment>.html`, which the server sends for that route (ADR 0056). Without it the browser
 * learns of the page's chunk only once the entry has run, one round trip later; with it both download at once.
 * `pages` maps a route's first segment to its page module (relative to the web app's root).
 */
export function routePreloads(pages: Record<string, string>): Plugin {
  let outDir = 'dist';
  let root = '';
  return {
    name: 'adpilot-route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = join(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle: Rollup.OutputBundle) {
      const chunks = Object.values(bundle).filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const html = await readFile(join(outDir, 'index.html'), 'utf8');
      await mkdir(join(outDir, 'routes'), { recursive: true });
      for (const [segment, module] of Object.entries(pages)) {
        const page = chunks.find((chunk) => chunk.facadeModuleId === join(root, module));
        if (!page) throw new Error(`route-preloads: no chunk for ${module}`);
        // The page's chunk and everything it imports statically, minus what index.html already preloads; at the end of
        // the body, so the stylesheet the first paint waits for is asked for first.
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          for (const imported of byFile.get(fileName)?.imports ?? []) visit(imported);
        };
        visit(page.fileName);
        const links = [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
          .join('\n    ');
        await writeFile(join(outDir, 'routes', `${segment}.html`), html.replace('</body>', `  ${links}\n  </body>`));
      }
    },
  };
}
