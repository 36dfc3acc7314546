import { REPORT_SEND_ATTEMPTS } from '@adpilot/contracts';
import { z } from 'zod';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import { registeredJob } from '../../../jobs/job-registry.ts';
import { REPORT_JOBS, type ReportScheduler } from './report-scheduler.ts';

/** The wait before a failed report is tried again; pg-boss doubles it each time (with jitter). Tests shorten it. */
export const DEFAULT_REPORT_RETRY_DELAY_SECONDS = 300;

/** The scheduled reports' jobs (ADR 0080): the tick every five minutes, one send per claimed delivery. */
export function defineReportJobs(
  queue: JobQueue,
  scheduler: ReportScheduler,
  retryDelaySeconds = DEFAULT_REPORT_RETRY_DELAY_SECONDS,
): void {
  queue.define({
    ...registeredJob(REPORT_JOBS.tick),
    payload: z.object({}).loose(),
    retryLimit: 0,
    handler: async () => {
      await scheduler.enqueueDue();
    },
  });
  queue.define({
    ...registeredJob(REPORT_JOBS.send),
    payload: z.object({ workspaceId: z.uuid(), deliveryId: z.uuid() }),
    // One job per delivery queued, retrying or running: the key is the delivery, so a claim asked again is dropped.
    retryLimit: REPORT_SEND_ATTEMPTS - 1,
    retryDelaySeconds,
    concurrency: 1,
    handler: ({ workspaceId, deliveryId }, job) => scheduler.send(workspaceId, deliveryId, job.retryCount),
  });
}
