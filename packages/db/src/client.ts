import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The Drizzle handle, whichever driver is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** The PGlite instance (embedded default) — pg-boss runs on it through `fromPglite`. */
  pglite?: PGlite;
  /** The connection string (Postgres) — pg-boss opens its own pool on it. */
  url?: string;
  /** Raw SQL for the few places Drizzle has no word for (advisory locks, LISTEN/NOTIFY). */
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…`; when absent the embedded PGlite is used. */
  url?: string;
  /** Folder of the embedded database; `memory://` keeps it in memory (tests). */
  dataDir?: string;
  poolSize?: number;
}

export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    return {
      db: drizzlePg(pool, { schema }) as unknown as Database,
      kind: 'postgres',
      url: options.url,
      close: () => pool.end(),
    };
  }
  const dataDir = options.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const pglite = new PGlite(dataDir);
  return {
    db: drizzlePglite(pglite, { schema }) as unknown as Database,
    kind: 'pglite',
    pglite,
    close: () => pglite.close(),
  };
}
