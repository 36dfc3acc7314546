import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Database } from './client.ts';

/** A Drizzle transaction, whichever driver is behind it. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

declare const tenantBrand: unique symbol;
declare const userBrand: unique symbol;
declare const systemBrand: unique symbol;

/**
 * Who a workspace unit of work acts for: the workspace, and the member acting (null for the workspace's own jobs:
 * the scheduler's runs, syncs, retention). ADR 0070.
 */
export interface TenantScope {
  readonly workspaceId: string;
  readonly userId: string | null;
}

/**
 * One workspace's unit of work: a transaction running as the application role with `app.workspace_id` (and, for a
 * member's request, `app.user_id`) set, so row-level security lets only that workspace's rows through, and only
 * while the user is its member. Repositories take it and filter by `tx.workspaceId` as well: the explicit filter
 * and the database's policy use the same id, two locks rather than one.
 */
export interface TenantTx extends TenantScope {
  readonly db: Transaction;
  readonly [tenantBrand]: true;
}

/**
 * One person's unit of work, for what belongs to the person rather than a workspace (the account, its sessions,
 * notification settings, memberships): `app.user_id` set, no workspace, so workspace tables show it nothing.
 */
export interface UserTx {
  readonly userId: string;
  readonly db: Transaction;
  readonly [userBrand]: true;
}

/** A unit of work that knows its person: a user's own, or a member's request in a workspace. */
export type PersonTx = UserTx | TenantTx;

/**
 * A cross-tenant unit of work (scheduling, maintenance, the operator's endpoints, sign-in before a user is known).
 * Only `database.system(reason, …)` makes one, so every such query can be found by searching for `.system(`.
 */
export interface SystemTx {
  readonly reason: string;
  readonly db: Transaction;
  readonly [systemBrand]: true;
}

/** What services see of the database: units of work, never the handle. */
export interface Transactions {
  /** Runs `work` in one workspace transaction; every repository call given `tx` commits or rolls back together. */
  tenant<T>(scope: TenantScope, work: (tx: TenantTx) => Promise<T>): Promise<T>;
  /** Runs `work` in one transaction of a person (their own rows, no workspace's). */
  user<T>(userId: string, work: (tx: UserTx) => Promise<T>): Promise<T>;
  /** Runs `work` in one transaction that sees every tenant. `reason` names the caller for review and errors. */
  system<T>(reason: string, work: (tx: SystemTx) => Promise<T>): Promise<T>;
}

// contracts' UUID_PATTERN: this package imports nothing of ours, so the one check below keeps its own copy.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A tenant id must be a uuid: anything else is a bug in the caller, never a query to run. */
export function assertTenantId(id: string): void {
  if (!UUID.test(id)) throw new Error('A tenant transaction needs a workspace or user id (uuid)');
}

export const asTenantTx = (db: Transaction, scope: TenantScope) =>
  ({ db, workspaceId: scope.workspaceId, userId: scope.userId }) as TenantTx;
export const asUserTx = (db: Transaction, userId: string) => ({ db, userId }) as UserTx;
export const asSystemTx = (db: Transaction, reason: string) => ({ db, reason }) as SystemTx;

/** The rows of a raw SQL statement; both drivers answer `{ rows }`, which Drizzle's shared type leaves unknown. */
export async function selectRows<T>(db: Database | Transaction, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * A statement of a hot path, built by Drizzle once per transaction object instead of on every call, and run with
 * `sql.placeholder` values. Transaction objects are per connection (one per pooled Postgres connection, one for the
 * embedded database), so this builds a handful of times in the life of a process. On Postgres the `name` makes it
 * a prepared statement of the connection as well (parsed and planned once; Postgres plans it again by itself when
 * the role of the transaction that runs it differs, as row-level security depends on it); PGlite ignores it.
 */
export function preparedStatement<Q>(build: (db: Transaction) => Q): (db: Transaction) => Q {
  const built = new WeakMap<Transaction, Q>();
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}

/**
 * Runs `work` on the system path inside a person's or workspace's unit of work, then goes back to the application
 * role: for what one workspace's transaction must read or lock across the workspaces of its plan's payer (ADR 0110:
 * the pooled limits), in the same transaction, so the counts hold until it commits. The session's user is a member
 * of both roles (migration 0002). Every such call names its reason, like `system(…)`; repositories still filter by
 * the ids they are given.
 */
export async function systemWithin<T>(
  tx: TenantTx | UserTx,
  reason: string,
  work: (system: SystemTx) => Promise<T>,
): Promise<T> {
  await tx.db.execute(sql.raw("select set_config('role', 'adpilot_system', true)"));
  let result: T;
  try {
    result = await work(asSystemTx(tx.db, reason));
  } catch (error) {
    // After a failed statement the transaction is aborted: it rolls back, and the role with it. After any other
    // failure the caller may go on: back to the application role first.
    await tx.db.execute(sql.raw("select set_config('role', 'adpilot_app', true)")).catch(() => undefined);
    throw error;
  }
  await tx.db.execute(sql.raw("select set_config('role', 'adpilot_app', true)"));
  return result;
}
