import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { APP_ROLE, createDatabase, type DatabaseHandle, type DatabaseOptions } from './client.ts';
import { selectRows } from './transactions.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../migrations', import.meta.url));

/** Any fixed number: the advisory lock that lets one process migrate while the others wait. */
const MIGRATION_LOCK_ID = 4_242_001;

/** A user id no account has: the setup check's tenant query runs the whole tenant path and sees no rows. */
const PROBE_USER = '00000000-0000-0000-0000-000000000000';

/** A database on which AdPilot cannot work; the message says what to do. */
export class DatabaseSetupError extends Error {
  override name = 'DatabaseSetupError';
}

/**
 * Applies the committed migrations as the login user (the tables' owner). With several processes on one Postgres,
 * only one migrates at a time. The embedded database's one connection goes back to the application role after.
 */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.pglite) {
    await handle.pglite.exec('reset role');
    try {
      await migratePglite(drizzlePglite(handle.pglite), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await handle.pglite.exec(`set role ${APP_ROLE}`).catch(() => undefined);
    }
    return;
  }
  const client = new pg.Client({ connectionString: handle.url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
}

/** The applied migrations as drizzle's migrator records them: one row per file, stamped with its journal time. */
const APPLIED = 'select created_at from drizzle.__drizzle_migrations';

/** When each applied migration was written (its journal time), read as the login user: the application role may not. */
async function appliedMigrationTimes(handle: DatabaseHandle): Promise<Set<number>> {
  let rows: { created_at: string | number }[];
  if (handle.jobQueueConnection) {
    rows = (await handle.jobQueueConnection.query<{ created_at: string | number }>(APPLIED)).rows;
  } else {
    const client = new pg.Client({ connectionString: handle.url });
    await client.connect();
    try {
      rows = (await client.query<{ created_at: string }>(APPLIED)).rows;
    } finally {
      await client.end();
    }
  }
  return new Set(rows.map((row) => Number(row.created_at)));
}

/**
 * The tags of the migrations bundled with this build (`migrations/meta/_journal.json`) that the database has not
 * applied: empty once this build's schema is in place. A newer build's extra migrations do not count against it.
 */
export async function pendingMigrations(handle: DatabaseHandle): Promise<string[]> {
  const journal = JSON.parse(await readFile(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const applied = await appliedMigrationTimes(handle);
  return journal.entries.filter((entry) => !applied.has(entry.when)).map((entry) => entry.tag);
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Proves the setup works before the first request: the plain handle is the application role (so forgotten tenant
 * filters fail closed), and a tenant and a system transaction can open. Throws a `DatabaseSetupError` saying how
 * to fix it otherwise: a process that cannot serve a tenant query must not start and report itself healthy.
 */
export async function checkDatabaseSetup(handle: DatabaseHandle): Promise<void> {
  let stage = 'connect as the application role';
  try {
    const [who] = await selectRows<{ user: string; bypass: boolean }>(
      handle.db,
      sql`select current_user as "user", (rolsuper or rolbypassrls) as bypass from pg_roles where rolname = current_user`,
    );
    if (who?.user !== APP_ROLE || who.bypass) {
      throw new Error(`connections run as "${who?.user ?? 'unknown'}" instead of ${APP_ROLE}`);
    }
    stage = 'open a tenant transaction';
    await handle.tenant({ workspaceId: PROBE_USER, userId: null }, (tx) =>
      tx.db.execute(sql`select 1 from ad_accounts limit 1`),
    );
    stage = 'open a system transaction';
    await handle.system('setup check', (tx) => tx.db.execute(sql`select 1 from rate_limit_buckets limit 1`));
  } catch (error) {
    throw new DatabaseSetupError(
      `The database is not ready for AdPilot: could not ${stage} (${describe(error)}). The user AdPilot logs in as ` +
        `must own the database and be a member of the roles adpilot_app and adpilot_system; as a superuser run: ` +
        `GRANT adpilot_app, adpilot_system TO <that user>;`,
    );
  }
}

/** Opens, migrates and checks the database: the one way the server and the tests get a handle. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = createDatabase(options);
  try {
    await migrateDatabase(handle).catch((error: unknown) => {
      // Drizzle's message is the whole migration's SQL; the database's own words are in the cause.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      throw new DatabaseSetupError(`Migrating the database failed: ${describe(cause)}`, { cause: error });
    });
    await checkDatabaseSetup(handle);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
