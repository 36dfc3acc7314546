import type { Transactions } from '@adpilot/db';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import { AdminRepository } from './admin.repository.ts';
import { adminRoutes } from './admin.routes.ts';
import { AdminService, type AdminServiceDeps } from './admin.service.ts';

/**
 * The instance administrator's pages (the outbox mail, the users and their plans). Other modules need nothing of
 * it: it exports its routes.
 */
export function createAdminModule(deps: {
  transactions: Transactions;
  secretBox: SecretBox;
  users: AdminServiceDeps['users'];
  workspaces: AdminServiceDeps['workspaces'];
  plans: AdminServiceDeps['plans'];
}) {
  const service = new AdminService({ ...deps, repository: new AdminRepository() });
  return { service, routes: bindRoutes(adminRoutes, { admin: service }) };
}
