import { healthSchema, readinessSchema, successEnvelope, type Readiness } from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkDatabase } from './health.service.ts';
import { APP_VERSION } from '../../version.ts';
import type { DatabaseHandle } from '@adpilot/db';
import type { Config } from '../../config/env.ts';

const startedAt = Date.now();

export interface HealthRoutesOptions {
  database: DatabaseHandle;
  config: Pick<Config, 'role'>;
  readiness: () => Promise<Readiness>;
}

export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (
  app,
  { database, config, readiness },
) => {
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['health'],
        response: { 200: successEnvelope(healthSchema), 503: successEnvelope(healthSchema) },
      },
    },
    async (_request, reply) => {
      const began = performance.now();
      const up = await checkDatabase(database);
      const health = {
        status: up ? ('ok' as const) : ('degraded' as const),
        version: APP_VERSION,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        database: {
          up,
          kind: database.kind,
          latencyMs: up ? Math.round((performance.now() - began) * 100) / 100 : null,
        },
        role: config.role,
      };
      reply.status(up ? 200 : 503);
      return { success: true as const, data: health };
    },
  );

  // Readiness, for a load balancer or an orchestrator: 503 names the failing check. Public and cheap, like health.
  app.get(
    '/ready',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['health'],
        response: { 200: successEnvelope(readinessSchema), 503: successEnvelope(readinessSchema) },
      },
    },
    async (_request, reply) => {
      const answer = await readiness();
      reply.status(answer.ready ? 200 : 503);
      return { success: true as const, data: answer };
    },
  );
};
