import { mkdirSync } from 'node:fs';
import { PGlite, type Results, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { asSystemTx, asTenantTx, assertTenantId, type Transactions } from './transactions.ts';

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
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…`; when absent the embedded PGlite is used. */
  url?: string;
  /** Folder of the embedded database; `memory://` keeps it in memory (tests). */
  dataDir?: string;
  poolSize?: number;
}

/** Units of work on a Drizzle handle: each opens with one statement that sets the role (and the user). */
function unitsOfWork(db: Database): Transactions {
  return {
    async tenant(userId, work) {
      assertTenantId(userId);
      return db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('app.user_id', ${userId}, true), set_config('role', ${APP_ROLE}, true)`);
        return work(asTenantTx(tx, userId));
      });
    },
    system(reason, work) {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('role', 'adpilot_system', true)`);
        return work(asSystemTx(tx, reason));
      });
    },
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
    return { db, ...unitsOfWork(db), kind: 'postgres', url: options.url, close: () => pool.end() };
  }
  const dataDir = options.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const pglite = new PGlite(dataDir);
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
  return {
    db,
    ...unitsOfWork(db),
    kind: 'pglite',
    pglite,
    jobQueueConnection: asLoginUser(pglite),
    close: () => pglite.close(),
  };
}
