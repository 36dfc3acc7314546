import type { JobQueue } from '../../jobs/job-queue.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import { AccountExport, type AccountExportDeps } from './account-export.ts';
import { defineAccountJobs, requestAccountExport } from './account.jobs.ts';
import { accountExportRoutes, accountRoutes } from './account.routes.ts';
import { AccountService, type AccountDeps } from './account.service.ts';

/**
 * My account (issue 31): the person's own profile, language and time zone, password, sessions, workspaces, the plan
 * they pay for, the export of their data and the account's deletion, composed from auth, notifications, workspaces,
 * subscription, rules, activity and agents. Its routes (/api/account) are its only API.
 */
export function createAccountModule(
  deps: Omit<AccountDeps, 'exports'> & {
    queue: JobQueue;
    export: Omit<AccountExportDeps, 'auth' | 'notifications' | 'handover'>;
  },
) {
  const exporter = new AccountExport({
    ...deps.export,
    auth: deps.auth,
    notifications: deps.notifications,
    handover: deps.handover,
  });
  defineAccountJobs(deps.queue, exporter);
  const service = new AccountService({
    ...deps,
    exports: { request: (userId) => requestAccountExport(deps.queue, userId), claim: (token) => exporter.claim(token) },
  });
  return {
    service,
    routes: bindRoutes(accountRoutes, { account: service }),
    /** The e-mailed download link: the token is its only credential, so it sits outside the signed-in routes. */
    exportRoutes: bindRoutes(accountExportRoutes, { account: service }),
  };
}
