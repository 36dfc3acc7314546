import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';

/** What any Fastify answer carries without Helmet: not Helmet's to set. */
const NOT_HELMETS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers Helmet sets with `options`. Helmet builds its middleware, and with it every header, on each request
 * (`@fastify/helmet` calls `helmet(options)` per request: the CSP is parsed again every time); with no nonces
 * nothing in them depends on the request, so Helmet answers one request of a throwaway instance at start and
 * every answer carries what it set.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify();
  await probe.register(helmet, options);
  probe.get('/', () => '');
  const answer = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  return Object.fromEntries(
    Object.entries(answer.headers)
      .filter(([name]) => !NOT_HELMETS.has(name))
      .map(([name, value]) => [name, String(value)]),
  );
}

/**
 * Helmet with a CSP the SPA passes (no inline scripts; inline styles are allowed because the toast library
 * injects a style tag), and a coarse per-IP flood limit. The limits that matter for security (sign-in and
 * reset failures) are counted in the database by the auth service, so they hold across processes.
 */
export async function registerSecurity(
  app: FastifyInstance,
  options: {
    https: boolean;
    requestsPerMinute: number;
    /** Requests the flood limit lets by, besides the health check (the metrics scraper's). */
    exempt?: (request: FastifyRequest) => boolean;
  },
): Promise<void> {
  const headers = await helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: options.https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  const entries = Object.entries(headers);
  // On the raw response, as Helmet does: a hijacked answer (the live log stream) writes its head itself.
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of entries) reply.raw.setHeader(name, value);
    done();
  });
  if (options.requestsPerMinute === 0) return;
  await app.register(rateLimit, {
    global: false,
    max: options.requestsPerMinute,
    timeWindow: '1 minute',
    allowList: (request) =>
      request.url === '/api/health' || request.url === '/api/ready' || (options.exempt?.(request) ?? false),
    errorResponseBuilder: (_request, context) =>
      AppError.tooManyRequests('Too many requests, please try again later', context.ttl / 1000),
  });
  // A root hook rather than one per route: it runs before authentication, so unauthenticated requests and unknown
  // addresses count too, and every answer it refuses goes through the one error handler.
  app.addHook('onRequest', app.rateLimit());
}
