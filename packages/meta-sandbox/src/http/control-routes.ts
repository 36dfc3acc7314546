import type { FastifyInstance } from 'fastify';
import { faultConfigSchema, type FaultConfig } from '../faults.ts';
import type { CallStatsSnapshot } from '../stats.ts';
import { isWorldKey } from '../world/world-key.ts';

/** What the `/__sandbox` routes may do; the sandbox leaves them out when control is switched off. */
export interface SandboxControl {
  setFaults(config: FaultConfig): void;
  faults(): FaultConfig;
  stats(): CallStatsSnapshot;
  resetStats(): void;
  /** Back to the seed: the default world, or the world of `key`. */
  reset(key?: string): void;
}

/** HTTP twins of the in-process controls, for end-to-end tests that drive the app from a browser. */
export function registerControlRoutes(app: FastifyInstance, control: SandboxControl): void {
  app.get('/__sandbox/stats', () => control.stats());
  app.post('/__sandbox/stats/reset', (_request, reply) => {
    control.resetStats();
    return reply.code(204).send();
  });
  app.get('/__sandbox/faults', () => control.faults());
  app.post('/__sandbox/faults', (request, reply) => {
    const parsed = faultConfigSchema.safeParse(request.body ?? {});
    if (!parsed.success)
      return reply.code(400).send({ message: 'Invalid fault configuration', issues: parsed.error.issues });
    control.setFaults(parsed.data);
    return control.faults();
  });
  app.delete('/__sandbox/faults', (_request, reply) => {
    control.setFaults({});
    return reply.code(204).send();
  });
  // `?world=<key>` resets that world instead of the default one.
  app.post('/__sandbox/reset', (request, reply) => {
    const world = (request.query as { world?: unknown }).world;
    if (world !== undefined && (typeof world !== 'string' || !isWorldKey(world)))
      return reply.code(400).send({ message: 'world must be a sandbox world key (1 to 64 letters, digits, - or _)' });
    control.reset(world);
    return reply.code(204).send();
  });
}
