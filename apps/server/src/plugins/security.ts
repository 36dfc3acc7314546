import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.ts';

/**
 * Helmet with a CSP the SPA passes (no inline scripts; inline styles are allowed because the toast library
 * injects a style tag), and a coarse per-IP flood limit. The limits that matter for security (sign-in and
 * reset failures) are counted in the database by the auth service, so they hold across processes.
 */
export async function registerSecurity(
  app: FastifyInstance,
  options: { https: boolean; requestsPerMinute: number },
): Promise<void> {
  await app.register(helmet, {
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
  if (options.requestsPerMinute === 0) return;
  await app.register(rateLimit, {
    global: false,
    max: options.requestsPerMinute,
    timeWindow: '1 minute',
    allowList: (request) => request.url === '/api/health',
    errorResponseBuilder: (_request, context) =>
      AppError.tooManyRequests('Too many requests, please try again later', context.ttl / 1000),
  });
  // A root hook rather than one per route: it runs before authentication, so unauthenticated requests and unknown
  // addresses count too, and every answer it refuses goes through the one error handler.
  app.addHook('onRequest', app.rateLimit());
}
