import type { Transactions } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { defineMaintenanceJobs } from './maintenance.jobs.ts';
import { MaintenanceService, type MaintenanceDeps } from './maintenance.service.ts';

/**
 * The hourly purge and the recovery of stale syncs. It owns no table: each owner purges its own rows (ADR 0066).
 * It has no routes and no API: it declares its job.
 */
export function createMaintenanceModule(
  deps: Omit<MaintenanceDeps, 'transactions'> & {
    transactions: Transactions;
    queue: JobQueue;
    now: () => Date;
    log: FastifyBaseLogger;
  },
): void {
  const { queue, now, log, ...owners } = deps;
  defineMaintenanceJobs(queue, { maintenance: new MaintenanceService(owners), now, log });
}
