import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { MaintenanceService } from './maintenance.service.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { registeredJob } from '../../jobs/job-registry.ts';

export const PURGE_JOB = 'maintenance-purge';

interface MaintenanceDeps {
  maintenance: Pick<MaintenanceService, 'run'>;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** One maintenance run: the purge, then the recovery of syncs that stopped reporting. */
export async function runMaintenance(deps: MaintenanceDeps): Promise<void> {
  const { purged, recovered } = await deps.maintenance.run(deps.now());
  deps.log.info({ purged, recoveredSyncs: recovered }, 'purged expired rows and recovered stale syncs');
}

/**
 * Hourly: drop spent and expired single-use tokens, closed rate-limit windows and outbox mail whose link expired,
 * and turn stale `queued`/`syncing` states into an error.
 */
export function defineMaintenanceJobs(queue: JobQueue, deps: MaintenanceDeps): void {
  queue.define({
    ...registeredJob(PURGE_JOB),
    payload: z.object({}).loose(),
    retryLimit: 1,
    handler: () => runMaintenance(deps),
  });
}
