import { z } from 'zod';

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeSeconds: z.number(),
  database: z.object({ up: z.boolean(), kind: z.enum(['pglite', 'postgres']), latencyMs: z.number().nullable() }),
  role: z.enum(['all', 'api', 'worker']),
});

export type Health = z.infer<typeof healthSchema>;
