import type { Transactions } from '@adpilot/db';
import { bindRoutes } from '../../lib/bind-routes.ts';
import { MembershipCache } from './membership-cache.ts';
import { WorkspacesRepository } from './workspaces.repository.ts';
import { workspacesRoutes } from './workspaces.routes.ts';
import { WorkspacesService } from './workspaces.service.ts';

/**
 * Workspaces and their members (ADR 0070). Its public API: `service.createPersonal(tx, user)`, which sign-up calls in
 * the unit of work that makes the user;
 * `service.resolve(user, id)`, the request's current workspace and role (cached in `memberships`, whose listener
 * app.ts hands the sessions channel); and its routes.
 */
export function createWorkspacesModule(deps: { transactions: Transactions; now: () => Date }) {
  const memberships = new MembershipCache(deps.now);
  const service = new WorkspacesService({
    transactions: deps.transactions,
    repository: new WorkspacesRepository(),
    memberships,
  });
  return { service, memberships, routes: bindRoutes(workspacesRoutes, { workspaces: service }) };
}
