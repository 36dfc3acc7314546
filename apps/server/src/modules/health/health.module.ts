import type { DatabaseHandle } from '@adpilot/db';
import type { Config } from '../../config/env.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import { healthRoutes } from './health.routes.ts';
import { countPendingMigrations } from './health.repository.ts';
import { createReadiness, type ReadinessDeps } from './health.service.ts';

/**
 * GET /api/health (liveness: whether the database answers) and GET /api/ready (readiness: database, queue and
 * migrations). It exports its routes only.
 */
export function createHealthModule(deps: {
  database: DatabaseHandle;
  queue: ReadinessDeps['queue'];
  config: Pick<Config, 'role'>;
}) {
  const readiness = createReadiness({
    transactions: deps.database,
    queue: deps.queue,
    pendingMigrations: () => countPendingMigrations(deps.database),
  });
  return { routes: bindRoutes(healthRoutes, { database: deps.database, config: deps.config, readiness }) };
}
