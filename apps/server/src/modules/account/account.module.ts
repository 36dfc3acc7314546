import { bindRoutes } from '../../lib/bind-routes.ts';
import { accountRoutes } from './account.routes.ts';
import { AccountService, type AccountDeps } from './account.service.ts';

/**
 * My account (issue 31): the person's own profile, language and time zone, password, sessions, workspaces, the plan
 * they pay for and the account's deletion, composed from auth, notifications, workspaces and subscription. Its
 * routes (/api/account) are its only API.
 */
export function createAccountModule(deps: AccountDeps) {
  const service = new AccountService(deps);
  return { service, routes: bindRoutes(accountRoutes, { account: service }) };
}
