import { workspaceJob } from '../../lib/scope.ts';
import type { Transactions } from '@adpilot/db';
import { probeTenantTable } from './health.repository.ts';

/** A workspace id none has: the probe runs the whole tenant path and reads nothing. */
const PROBE_WORKSPACE = '00000000-0000-0000-0000-000000000000';

/**
 * The database is up when a tenant query works, not merely when the server answers `select 1`: a setup that
 * cannot switch roles answers `select 1` and fails every real request.
 */
export function checkDatabase(transactions: Transactions): Promise<boolean> {
  return transactions.tenant(workspaceJob(PROBE_WORKSPACE), probeTenantTable).then(
    () => true,
    () => false,
  );
}
