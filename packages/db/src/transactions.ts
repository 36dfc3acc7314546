import type { SQL } from 'drizzle-orm';
import type { Database } from './client.ts';

/** A Drizzle transaction, whichever driver is behind it. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

declare const tenantBrand: unique symbol;
declare const systemBrand: unique symbol;

/**
 * One user's unit of work: a transaction running as the application role with `app.user_id` set, so row-level
 * security lets only this user's rows through. Repositories take it and filter by `tx.userId` as well: the explicit
 * filter and the database's policy use the same id, two locks rather than one.
 */
export interface TenantTx {
  readonly userId: string;
  readonly db: Transaction;
  readonly [tenantBrand]: true;
}

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
  /** Runs `work` in one tenant transaction; every repository call given `tx` commits or rolls back together. */
  tenant<T>(userId: string, work: (tx: TenantTx) => Promise<T>): Promise<T>;
  /** Runs `work` in one transaction that sees every tenant. `reason` names the caller for review and errors. */
  system<T>(reason: string, work: (tx: SystemTx) => Promise<T>): Promise<T>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A tenant id must be a uuid: anything else is a bug in the caller, never a query to run. */
export function assertTenantId(userId: string): void {
  if (!UUID.test(userId)) throw new Error('A tenant transaction needs a user id (uuid)');
}

export const asTenantTx = (db: Transaction, userId: string) => ({ db, userId }) as TenantTx;
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
