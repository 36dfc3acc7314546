import { z } from 'zod';

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeSeconds: z.number(),
  database: z.object({ up: z.boolean(), kind: z.enum(['pglite', 'postgres']), latencyMs: z.number().nullable() }),
  role: z.enum(['all', 'api', 'worker']),
});

export type Health = z.infer<typeof healthSchema>;

/** One readiness check: whether it passed. */
const readinessCheckSchema = z.object({ ok: z.boolean() });

/**
 * GET /api/ready: whether this process can take traffic (or jobs) now. The database answers a tenant query, the job
 * queue answers on its own connection, and every migration bundled with this build is applied. Liveness stays
 * GET /api/health.
 */
export const readinessSchema = z.object({
  ready: z.boolean(),
  checks: z.object({
    database: readinessCheckSchema,
    queue: readinessCheckSchema,
    /** `pending`: bundled migrations the database has not applied (null when they could not be read). */
    migrations: readinessCheckSchema.extend({ pending: z.number().int().nullable() }),
  }),
});

export type Readiness = z.infer<typeof readinessSchema>;
