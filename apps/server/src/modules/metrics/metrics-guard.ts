import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';

export const METRICS_PATH = '/api/metrics';

/** A session's access token is a JWT (three dot-separated parts); anything else was meant as the metrics token. */
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Equal in time independent of where they differ: both are hashed first, so their lengths give nothing away either. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

/**
 * Who may read the metrics (ADR 0084): a scraper with METRICS_TOKEN as its bearer, or the signed-in instance
 * administrator; without a METRICS_TOKEN, the administrator only.
 */
export function metricsGuard(token: string | undefined) {
  const isScraper = (request: FastifyRequest): boolean => {
    if (!token || request.url.split('?')[0] !== METRICS_PATH) return false;
    const bearer = bearerOf(request);
    return bearer !== undefined && sameSecret(bearer, token);
  };
  return {
    /** The scraper's requests skip the flood limit: a busy proxy address must not cost a 15 s scrape its answer. */
    isScraper,
    /** The route's onRequest hook: 401 without a valid bearer, 403 for a session that is not the administrator's. */
    check(app: FastifyInstance) {
      return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
        if (isScraper(request)) return;
        const bearer = bearerOf(request);
        if (bearer !== undefined && !JWT_SHAPE.test(bearer)) throw AppError.unauthorized('Invalid metrics token');
        await app.requireAdmin(request, reply);
      };
    },
  };
}
