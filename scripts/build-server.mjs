// Bundles the server's TypeScript (and the workspace packages it imports) into apps/server/dist/main.js, so
// `npm start` runs plain JavaScript: no TypeScript loader hooked into every module load (ADR 0015). Packages from
// node_modules stay outside the bundle and load as usual. Development and tests still run the sources (ADR 0001).
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = resolve(root, 'apps/server/dist/main.js');
const workspace = /^@adpilot\//;

await build({
  entryPoints: [resolve(root, 'apps/server/src/main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [
    {
      name: 'node-modules-outside',
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, (args) =>
          workspace.test(args.path) ? undefined : { path: args.path, external: true },
        );
      },
    },
    {
      // A module that finds files next to itself (`new URL('../migrations', import.meta.url)`) keeps finding them:
      // its `import.meta.url` becomes its own source file's address, computed from where the bundle runs.
      name: 'own-import-meta-url',
      setup(builder) {
        builder.onLoad({ filter: /\.ts$/ }, async (args) => {
          if (args.path.includes('/node_modules/')) return undefined;
          const source = await readFile(args.path, 'utf8');
          if (!source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
          const fromBundle = relative(dirname(outfile), args.path).split('\\').join('/');
          const own = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
          return { contents: source.replaceAll('import.meta.url', own), loader: 'ts' };
        });
      },
    },
  ],
});
