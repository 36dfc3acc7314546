import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Serves the built SPA: hashed assets cached for a year, index.html never cached, and every other GET that
 * accepts HTML answered with index.html so client-side routes survive a reload (history fallback). Each file goes
 * as the brotli or gzip copy the build wrote beside it when the client accepts one (ADR 0056), the fallback's
 * index.html included, with `Vary: Accept-Encoding` either way.
 */
export async function registerSpa(app: FastifyInstance, distDir: string): Promise<SpaPages | null> {
  if (!existsSync(join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'web app is not built; run `npm run build` to serve it');
    return null;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders(reply, path) {
      reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/assets/*', (request, reply) => reply.sendFile(`assets/${(request.params as { '*': string })['*']}`));
  // Pages opened first by address have a copy of index.html that also preloads their chunks (routes/<segment>.html).
  const routesDir = join(distDir, 'routes');
  const routes = new Set(
    existsSync(routesDir)
      ? readdirSync(routesDir)
          .filter((name) => name.endsWith('.html'))
          .map((name) => name.slice(0, -'.html'.length))
      : [],
  );
  return {
    htmlFor(path) {
      const segment = path.split('/')[1] ?? '';
      return routes.has(segment) ? `routes/${segment}.html` : 'index.html';
    },
  };
}

/** The built SPA's HTML for a client-side route. */
export interface SpaPages {
  /** The file (relative to the build) to answer a page path with. */
  htmlFor(path: string): string;
}
