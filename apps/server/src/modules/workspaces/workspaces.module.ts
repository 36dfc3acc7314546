import type { Transactions } from '@adpilot/db';
import { bindRoutes } from '../../lib/bind-routes.ts';
import { WorkspacesRepository } from './workspaces.repository.ts';
import { workspacesRoutes } from './workspaces.routes.ts';
import { WorkspacesService } from './workspaces.service.ts';

/**
 * Workspaces and their members (ADR 0070). Its public API: `service.createPersonal(tx, user)`, which sign-up calls in
 * the unit of work that makes the user; and its routes.
 */
export function createWorkspacesModule(deps: { transactions: Transactions }) {
  const service = new WorkspacesService({ transactions: deps.transactions, repository: new WorkspacesRepository() });
  return { service, routes: bindRoutes(workspacesRoutes, { workspaces: service }) };
}
