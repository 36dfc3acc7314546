import type { Transactions } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { defineMaintenanceJobs } from './maintenance.jobs.ts';
import { MaintenanceRepository } from './maintenance.repository.ts';

/** The hourly purge and the recovery of stale syncs. It has no routes and no API: it declares its job. */
export function createMaintenanceModule(deps: {
  transactions: Transactions;
  queue: JobQueue;
  now: () => Date;
  log: FastifyBaseLogger;
}): void {
  const { queue, ...job } = deps;
  defineMaintenanceJobs(queue, { ...job, repository: new MaintenanceRepository() });
}
