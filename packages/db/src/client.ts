import { makePrivateDir, securePrivateTree } from './private-files.ts';
import {
  PGlite,
  TransactionAbortedError,
  type Results,
  type Transaction as PgliteTransaction,
} from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { pgliteUnitsOfWork } from './pglite-units.ts';
import { listenPglite, listenPostgres, type ChannelListener, type Unlisten } from './listen.ts';
import {
  asSystemTx,
  asTenantTx,
  asUserTx,
  assertTenantId,
  type Transaction,
  type Transactions,
} from './transactions.ts';

export type Schema = typeof schema;
/** The Drizzle handle, whichever driver is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgres';

/** The role every connection runs as; see `roles.ts` and ADR 0013. */
export const APP_ROLE = 'adpilot_app';

/** The subset of PGlite that pg-boss's `fromPglite` adapter calls. */
export interface PgliteLike {
  query<T>(text: string, values?: unknown[]): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

export interface DatabaseHandle extends Transactions {
  /**
   * The plain handle. It runs as the application role with no user set, so tenant tables show it nothing and
   * the tables of no user refuse it: tenant work goes through `tenant`, cross-tenant work through `system`.
   */
  db: Database;
  kind: DatabaseKind;
  /** The embedded database, for migrations. */
  pglite?: PGlite;
  /**
   * pg-boss's way onto the embedded database's one connection: each statement runs as the login user, in whose
   * schema the queue lives (on Postgres pg-boss opens its own pool on `url`, as the login user too).
   */
  jobQueueConnection?: PgliteLike;
  /** The connection string (Postgres) — pg-boss and migrations open their own connections on it. */
  url?: string;
  /**
   * Hears `NOTIFY` on `channel` (sent with `pg_notify` in a transaction, delivered once it commits) from every
   * process on this database; on Postgres through a dedicated connection that reconnects by itself.
   */
  listen(channel: string, listener: ChannelListener): Promise<Unlisten>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…`; when absent the embedded PGlite is used. */
  url?: string;
  /** Folder of the embedded database; `memory://` keeps it in memory (tests). */
  dataDir?: string;
  poolSize?: number;
  /** A dump of an embedded database (`dumpDataDir`) to start from instead of an empty one: the tests' snapshot. */
  loadDataDir?: Blob;
}

/**
 * The statement that opens a unit of work: the role, and for a tenant the workspace and the user row-level security
 * lets through (ids are checked uuids, so they can stand in the statement's text).
 */
function prologue(scope?: { workspaceId?: string; userId: string | null }): string {
  if (scope === undefined) return "select set_config('role', 'adpilot_system', true)";
  const workspaceId = scope.workspaceId ?? '';
  const userId = scope.userId ?? '';
  if (workspaceId) assertTenantId(workspaceId);
  if (userId) assertTenantId(userId);
  if (!workspaceId && !userId) throw new Error('A tenant transaction needs a workspace or a user');
  return `select set_config('app.workspace_id', '${workspaceId}', true), set_config('app.user_id', '${userId}', true), set_config('role', '${APP_ROLE}', true)`;
}

/** Opens a transaction with `opening` as its first statement and runs `work` in it. */
export type OpenTransaction = <T>(opening: string, work: (tx: Transaction) => Promise<T>) => Promise<T>;

/** Tenant, user and system units of work on one way of opening a transaction: the prologue says which. */
function unitsOfWork(run: OpenTransaction): Transactions {
  return {
    tenant: async (scope, work) => {
      if (!scope.workspaceId) throw new Error('A workspace transaction needs a workspace');
      return run(prologue(scope), (tx) => work(asTenantTx(tx, scope)));
    },
    user: async (userId, work) => run(prologue({ userId }), (tx) => work(asUserTx(tx, userId))),
    system: async (reason, work) => run(prologue(), (tx) => work(asSystemTx(tx, reason))),
  };
}

/**
 * On the Postgres pool, in three round trips for one query: `begin` and the prologue travel together
 * (the simple protocol takes several statements at once), then the work, then `commit`. Each pooled connection
 * keeps one Drizzle transaction object, so a request does not rebuild Drizzle's query builders either.
 */
function poolTransactions(pool: pg.Pool, db: Database): OpenTransaction {
  const dialect = (db as unknown as { dialect: ConstructorParameters<typeof NodePgSession>[1] }).dialect;
  const { schema, fullSchema, tableNamesMap } = db._;
  const relational = schema ? { schema, fullSchema, tableNamesMap } : undefined;
  const transactions = new WeakMap<pg.PoolClient, Transaction>();
  const transactionOf = (client: pg.PoolClient): Transaction => {
    let tx = transactions.get(client);
    if (!tx) {
      const session = new NodePgSession(client, dialect, relational, {});
      tx = new NodePgTransaction(dialect, session, relational) as unknown as Transaction;
      transactions.set(client, tx);
    }
    return tx;
  };
  return async <T>(opening: string, work: (tx: Transaction) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    // A connection whose transaction state is unknown (a failed begin, rollback or commit) leaves the pool.
    let discard: Error | undefined;
    const orDiscard = (error: Error) => {
      discard = error;
      throw error;
    };
    try {
      await client.query(`begin; ${opening}`).catch(orDiscard);
      let result: T;
      try {
        result = await work(transactionOf(client));
      } catch (error) {
        await client.query('rollback').catch((rollbackError: Error) => (discard = rollbackError));
        throw error;
      }
      const committed = await client.query('commit').catch(orDiscard);
      // A statement failed inside `work` and `work` went on: Postgres answers the commit with a rollback.
      if (committed.command === 'ROLLBACK') throw new TransactionAbortedError();
      return result;
    } finally {
      client.release(discard);
    }
  };
}

/** Each statement in its own transaction, switched back to the login user for that transaction only. */
function asLoginUser(pglite: PGlite): PgliteLike {
  const asLogin = <T>(work: (tx: PgliteTransaction) => Promise<T>) =>
    pglite.transaction(async (tx) => {
      await tx.exec('set local role none');
      return work(tx);
    });
  return {
    query: (text, values) => asLogin((tx) => tx.query(text, values)),
    exec: (text) => asLogin((tx) => tx.exec(text)),
    listen: (channel, callback) => pglite.listen(channel, callback),
  };
}

/** Opens the database without touching it; `openDatabase` is the usual entry (migrates and checks the roles). */
export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // Every connection starts as the application role: a query that forgets the tenant path sees nothing.
      options: `-c role=${APP_ROLE}`,
    });
    // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    const url = options.url;
    return {
      db,
      ...unitsOfWork(poolTransactions(pool, db)),
      kind: 'postgres',
      url,
      listen: (channel, listener) => listenPostgres(url, channel, listener),
      close: () => pool.end(),
    };
  }
  const dataDir = options.dataDir ?? 'memory://';
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) makePrivateDir(dataDir);
  const unlock = inMemory ? () => undefined : lockDataDir(dataDir);
  const pglite = new PGlite(dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  // PGlite writes its files with the process's umask: private once it is open, and again when it closes (ADR 0095).
  const secure = () => {
    if (!inMemory) securePrivateTree(dataDir);
  };
  void pglite.waitReady.then(secure, () => undefined);
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
  return {
    db,
    ...unitsOfWork(pgliteUnitsOfWork(pglite, db)),
    kind: 'pglite',
    pglite,
    jobQueueConnection: asLoginUser(pglite),
    listen: (channel, listener) => listenPglite(pglite, channel, listener),
    close: () => pglite.close().then(secure).finally(unlock),
  };
}
