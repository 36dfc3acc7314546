import { workspaceJob } from '../../lib/scope.ts';
import type { Transactions } from '@adpilot/db';
import { z } from 'zod';
import type { AdAccountsRepository } from './ad-accounts.repository.ts';
import type { AdAccountBackfillService } from './ad-account-backfill.service.ts';
import type { AdAccountSyncService } from './ad-account-sync.service.ts';
import type { SyncScheduler } from './ad-accounts.service.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { registeredJob } from '../../jobs/job-registry.ts';

export const SYNC_JOB = 'ad-account-sync';
export const SYNC_DUE_JOB = 'ad-account-sync-due';
export const BACKFILL_JOB = 'ad-account-backfill';
const SYNC_RETRY_LIMIT = 3;
/** A backfill stopped by Meta's rate limit waits its hour's window out across these tries (ADR 0103). */
const BACKFILL_RETRY_LIMIT = 5;

const syncPayload = z.object({
  workspaceId: z.uuid(),
  adAccountId: z.uuid(),
  reason: z.enum(['connect', 'manual', 'schedule']),
});

const backfillPayload = z.object({ workspaceId: z.uuid(), adAccountId: z.uuid() });

/**
 * Declares the sync jobs: one account's sync, the five-minute tick that enqueues the accounts due, and one account's
 * history backfill, asked for by a sync that left older days to read or by a longer history setting.
 */
export function defineSyncJobs(
  queue: JobQueue,
  deps: {
    transactions: Transactions;
    sync: AdAccountSyncService;
    backfill: AdAccountBackfillService;
    repository: AdAccountsRepository;
    intervalMinutes: number;
    now: () => Date;
  },
): SyncScheduler {
  queue.define({
    ...registeredJob(SYNC_JOB),
    payload: syncPayload,
    // One queued and one running sync per account at most: the singleton key is the account.
    retryLimit: SYNC_RETRY_LIMIT,
    retryDelaySeconds: 30,
    concurrency: 2,
    handler: async (data, job) => {
      const result = await deps.sync.sync(workspaceJob(data.workspaceId), data.adAccountId, {
        final: job.retryCount >= SYNC_RETRY_LIMIT,
      });
      if (result.backfillDue) await scheduler.enqueueBackfill(data.workspaceId, data.adAccountId);
    },
  });

  queue.define({
    ...registeredJob(BACKFILL_JOB),
    payload: backfillPayload,
    // One queued and one running per account: two runs would read the same chunk (harmless, but twice the calls).
    retryLimit: BACKFILL_RETRY_LIMIT,
    retryDelaySeconds: 120,
    // A 37-month history is 38 chunks of a few calls each.
    expireInSeconds: 60 * 60,
    concurrency: 1,
    handler: async (data) => {
      await deps.backfill.backfill(workspaceJob(data.workspaceId), data.adAccountId);
    },
  });

  const scheduler: Required<SyncScheduler> = {
    async enqueueSync(workspaceId, adAccountId, reason) {
      const id = await queue.send(SYNC_JOB, { workspaceId, adAccountId, reason }, { singletonKey: adAccountId });
      return id !== null;
    },
    async enqueueBackfill(workspaceId, adAccountId) {
      const id = await queue.send(BACKFILL_JOB, { workspaceId, adAccountId }, { singletonKey: adAccountId });
      return id !== null;
    },
  };

  queue.define({
    ...registeredJob(SYNC_DUE_JOB),
    payload: z.object({}).loose(),
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
