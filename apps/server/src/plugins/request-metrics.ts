import type { FastifyInstance } from 'fastify';
import type { AppMetrics } from '../modules/metrics/index.ts';

/**
 * Counts and times every answer by its route's pattern (`/api/rules/:id`), never the address asked for: ids and
 * query strings would make a series per request. An address no route took is `unmatched`.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: AppMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request({
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
}
