import type { Transactions } from '@adpilot/db';
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { MaintenanceRepository } from '../modules/maintenance/maintenance.repository.ts';
import type { JobQueue } from './job-queue.ts';

export const PURGE_JOB = 'maintenance-purge';
/** How long revoked refresh tokens are kept so that replaying one is still detected as reuse. */
export const KEEP_REVOKED_DAYS = 7;

/** Hourly: drop spent and expired single-use tokens, closed rate-limit windows and outbox mail whose link expired. */
export function defineMaintenanceJobs(
  queue: JobQueue,
  deps: { transactions: Transactions; repository: MaintenanceRepository; now: () => Date; log: FastifyBaseLogger },
): void {
  queue.define({
    name: PURGE_JOB,
    payload: z.object({}).loose(),
    cron: '17 * * * *',
    retryLimit: 1,
    handler: async () => {
      const now = deps.now();
      const keepRevokedUntil = new Date(now.getTime() - KEEP_REVOKED_DAYS * 86_400_000);
      const purged = await deps.transactions.system('maintenance purge', (tx) =>
        deps.repository.purgeExpired(tx, now, keepRevokedUntil),
      );
      deps.log.info({ purged }, 'purged expired tokens, limit windows and outbox mail');
    },
  });
}
