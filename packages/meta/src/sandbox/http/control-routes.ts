import type { FastifyInstance } from 'fastify';
import { faultConfigSchema, type FaultConfig } from '../faults.ts';
import type { CallStatsSnapshot } from '../stats.ts';

/** What the `/__sandbox` routes may do; the sandbox leaves them out when control is switched off. */
export interface SandboxControl {
  setFaults(config: FaultConfig): void;
  faults(): FaultConfig;
  stats(): CallStatsSnapshot;
  resetStats(): void;
  reset(): void;
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
  app.post('/__sandbox/reset', (_request, reply) => {
    control.reset();
    return reply.code(204).send();
  });
}
