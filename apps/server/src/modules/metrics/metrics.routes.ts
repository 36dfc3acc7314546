import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppMetrics } from './app-metrics.ts';
import type { metricsGuard } from './metrics-guard.ts';

/** GET /api/metrics: the Prometheus text exposition of this process's metrics (ADR 0084). */
export const metricsRoutes: FastifyPluginAsyncZod<{
  metrics: AppMetrics;
  guard: ReturnType<typeof metricsGuard>;
}> = async (app, { metrics, guard }) => {
  app.get(
    '/metrics',
    {
      onRequest: guard.check(app),
      schema: {
        tags: ['metrics'],
        description: 'Bearer METRICS_TOKEN (a Prometheus scraper) or the instance administrator’s session',
        response: {
          200: {
            description: 'Every metric of this process, in the Prometheus text format',
            content: { 'text/plain': { schema: z.string() } },
          },
        },
      },
    },
    async (_request, reply) => {
      const { contentType, body } = await metrics.scrape();
      // A string is sent as it is (no serializer runs); the schema above only documents it.
      return reply.type(contentType).header('cache-control', 'no-store').send(body);
    },
  );
};
