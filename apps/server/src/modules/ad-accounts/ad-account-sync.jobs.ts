import { workspaceJob } from '../../lib/scope.ts';
import type { Transactions } from '@adpilot/db';
import { z } from 'zod';
import type { AdAccountsRepository } from './ad-accounts.repository.ts';
import type { AdAccountSyncService } from './ad-account-sync.service.ts';
import type { SyncScheduler } from './ad-accounts.service.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';

export const SYNC_JOB = 'ad-account-sync';
export const SYNC_DUE_JOB = 'ad-account-sync-due';
const SYNC_RETRY_LIMIT = 3;

const syncPayload = z.object({
  workspaceId: z.uuid(),
  adAccountId: z.uuid(),
  reason: z.enum(['connect', 'manual', 'schedule']),
});

/** Declares the sync jobs: one account's sync, and the five-minute tick that enqueues the accounts due. */
export function defineSyncJobs(
  queue: JobQueue,
  deps: {
    transactions: Transactions;
    sync: AdAccountSyncService;
    repository: AdAccountsRepository;
    intervalMinutes: number;
    now: () => Date;
  },
): SyncScheduler {
  queue.define({
    name: SYNC_JOB,
    payload: syncPayload,
    // One queued and one running sync per account at most: the singleton key is the account.
    policy: 'stately',
    retryLimit: SYNC_RETRY_LIMIT,
    retryDelaySeconds: 30,
    concurrency: 2,
    handler: async (data, job) => {
      await deps.sync.sync(workspaceJob(data.workspaceId), data.adAccountId, {
        final: job.retryCount >= SYNC_RETRY_LIMIT,
      });
    },
  });

  const scheduler: SyncScheduler = {
    async enqueueSync(workspaceId, adAccountId, reason) {
      const id = await queue.send(SYNC_JOB, { workspaceId, adAccountId, reason }, { singletonKey: adAccountId });
      return id !== null;
    },
  };

  queue.define({
    name: SYNC_DUE_JOB,
    payload: z.object({}).loose(),
    cron: '*/5 * * * *',
    retryLimit: 0,
    handler: async () => {
      const before = new Date(deps.now().getTime() - deps.intervalMinutes * 60_000);
      const due = await deps.transactions.system('sync scheduler', (tx) =>
        deps.repository.findDueForSync(tx, before, 500),
      );
      for (const account of due) {
        await scheduler.enqueueSync(account.workspaceId, account.id, 'schedule');
      }
    },
  });
  return scheduler;
}
