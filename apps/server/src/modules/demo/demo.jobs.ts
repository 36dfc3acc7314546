import { z } from 'zod';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { registeredJob } from '../../jobs/job-registry.ts';
import type { DemoService } from './demo.service.ts';

export const DEMO_RESET_JOB = 'demo-reset';

/** Every hour: a fresh demo workspace, the visitor moved to it, the older one deleted. */
export function defineDemoJobs(queue: JobQueue, demo: DemoService): void {
  queue.define({
    ...registeredJob(DEMO_RESET_JOB),
    payload: z.object({}).loose(),
    retryLimit: 1,
    handler: async () => {
      if (demo.available()) await demo.rebuild();
    },
  });
}
