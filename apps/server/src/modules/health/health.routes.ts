import { healthSchema, successEnvelope } from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkDatabase } from './health.service.ts';
import { APP_VERSION } from '../../version.ts';
import type { DatabaseHandle } from '@adpilot/db';
import type { Config } from '../../config/env.ts';

const startedAt = Date.now();

export const healthRoutes: FastifyPluginAsyncZod<{ database: DatabaseHandle; config: Pick<Config, 'role'> }> = async (
  app,
  { database, config },
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
};
