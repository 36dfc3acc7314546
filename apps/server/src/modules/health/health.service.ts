import { workspaceJob } from '../../lib/scope.ts';
import type { Readiness } from '@adpilot/contracts';
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

/** The longest one readiness check may take: a database that hangs fails the check instead of the probe. */
const CHECK_TIMEOUT_MS = 2000;

function within<T>(work: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

export interface ReadinessDeps {
  transactions: Transactions;
  /** The job queue: whether it is started and answers. */
  queue: { reachable(): Promise<boolean> };
  /** How many migrations bundled with this build the database has not applied. */
  pendingMigrations: () => Promise<number>;
}

/**
 * Whether this process can take traffic or jobs now: the tenant probe, the queue, and this build's migrations. Once
 * every bundled migration is applied it stays so, and the check stops reading the migrations table: a probe every
 * few seconds then costs one tenant query and one queue query.
 */
export function createReadiness({ transactions, queue, pendingMigrations }: ReadinessDeps): () => Promise<Readiness> {
  let migrated = false;
  const migrations = async (): Promise<{ ok: boolean; pending: number | null }> => {
    if (migrated) return { ok: true, pending: 0 };
    const pending = await within<number | null>(pendingMigrations(), null);
    migrated = pending === 0;
    return { ok: migrated, pending };
  };
  return async () => {
    const [databaseUp, queueUp, applied] = await Promise.all([
      within(checkDatabase(transactions), false),
      within(queue.reachable(), false),
      migrations(),
    ]);
    const checks = { database: { ok: databaseUp }, queue: { ok: queueUp }, migrations: applied };
    return { ready: databaseUp && queueUp && applied.ok, checks };
  };
}
