import { z } from 'zod';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { registeredJob } from '../../jobs/job-registry.ts';
import type { AccountExport } from './account-export.ts';

export const ACCOUNT_EXPORT_JOB = 'account-export';

/** "Export my data": the ZIP is built and its link mailed by a worker, not in the request (issue 31). */
export function defineAccountJobs(queue: JobQueue, exporter: Pick<AccountExport, 'prepare'>): void {
  queue.define({
    ...registeredJob(ACCOUNT_EXPORT_JOB),
    payload: z.object({ userId: z.uuid() }),
    retryLimit: 2,
    handler: async ({ userId }) => {
      await exporter.prepare(userId);
    },
  });
}

/** Asks for one export; a second request while one is queued is the same job (the singleton key). */
export async function requestAccountExport(queue: JobQueue, userId: string): Promise<void> {
  await queue.send(ACCOUNT_EXPORT_JOB, { userId }, { singletonKey: userId });
}
