import type { Transactions } from '@adpilot/db';
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { MaintenanceRepository } from './maintenance.repository.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';

export const PURGE_JOB = 'maintenance-purge';
/** How long revoked refresh tokens are kept so that replaying one is still detected as reuse. */
export const KEEP_REVOKED_DAYS = 7;

/**
 * A sync state untouched this long is stale. Each attempt writes `syncing` when it starts, and pg-boss expires an
 * attempt after 15 minutes, so a live sync is never this old; the margin covers a job waiting its turn (ADR 0036).
 */
export const STALE_SYNC_MINUTES = 60;

interface MaintenanceDeps {
  transactions: Transactions;
  repository: MaintenanceRepository;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** One maintenance run: the purge, then the recovery of syncs that stopped reporting. */
export async function runMaintenance(deps: MaintenanceDeps): Promise<void> {
  const now = deps.now();
  const keepRevokedUntil = new Date(now.getTime() - KEEP_REVOKED_DAYS * 86_400_000);
  const staleBefore = new Date(now.getTime() - STALE_SYNC_MINUTES * 60_000);
  const { purged, recovered } = await deps.transactions.system('maintenance purge', async (tx) => ({
    purged: await deps.repository.purgeExpired(tx, now, keepRevokedUntil),
    recovered: await deps.repository.recoverStaleSyncs(tx, staleBefore, now),
  }));
  deps.log.info({ purged, recoveredSyncs: recovered }, 'purged expired rows and recovered stale syncs');
}

/**
 * Hourly: drop spent and expired single-use tokens, closed rate-limit windows and outbox mail whose link expired,
 * and turn stale `queued`/`syncing` states into an error.
 */
export function defineMaintenanceJobs(queue: JobQueue, deps: MaintenanceDeps): void {
  queue.define({
    name: PURGE_JOB,
    payload: z.object({}).loose(),
    cron: '17 * * * *',
    retryLimit: 1,
    handler: () => runMaintenance(deps),
  });
}
