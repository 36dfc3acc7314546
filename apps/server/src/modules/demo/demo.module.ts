import type { JobQueue } from '../../jobs/job-queue.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import { DEMO_RESET_JOB, defineDemoJobs } from './demo.jobs.ts';
import { demoRoutes } from './demo.routes.ts';
import { DemoService, type DemoDeps } from './demo.service.ts';

/**
 * The read-only demo workspace behind Watch Demo (ADR 0185). It owns no table: it builds the demo through the
 * services a person's requests reach. Its public API: `service` (the authentication hook asks it which workspace a
 * demo session views).
 */
export function createDemoModule(deps: Omit<DemoDeps, 'requestBuild'> & { queue: JobQueue }) {
  const { queue, ...rest } = deps;
  const service = new DemoService({
    ...rest,
    requestBuild: () => queue.send(DEMO_RESET_JOB, {}, { singletonKey: 'demo' }),
  });
  defineDemoJobs(queue, service);
  return { service, routes: bindRoutes(demoRoutes, { demo: service }) };
}
