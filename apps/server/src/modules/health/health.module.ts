import type { DatabaseHandle } from '@adpilot/db';
import type { Config } from '../../config/env.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import { healthRoutes } from './health.routes.ts';

/** GET /api/health: whether the database answers. It exports its routes only. */
export function createHealthModule(deps: { database: DatabaseHandle; config: Pick<Config, 'role'> }) {
  return { routes: bindRoutes(healthRoutes, deps) };
}
