import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { ActivityService } from './activity.service.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { registeredJob } from '../../jobs/job-registry.ts';

export const LOG_RETENTION_JOB = 'activity-log-retention';

interface RetentionDeps {
  activity: ActivityService;
  retentionDays: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** One retention run: every user's entries older than LOG_RETENTION_DAYS go. */
export async function runLogRetention(deps: RetentionDeps): Promise<number> {
  const before = new Date(deps.now().getTime() - deps.retentionDays * 86_400_000);
  const deleted = await deps.activity.purgeOlderThan(before);
  deps.log.info({ deleted, before }, 'deleted activity entries past retention');
  return deleted;
}

/** Daily at 03:41 UTC (one run however many processes): the activity log keeps LOG_RETENTION_DAYS days. */
export function defineActivityJobs(queue: JobQueue, deps: RetentionDeps): void {
  queue.define({
    ...registeredJob(LOG_RETENTION_JOB),
    payload: z.object({}).loose(),
    retryLimit: 2,
    handler: async () => {
      await runLogRetention(deps);
    },
  });
}
