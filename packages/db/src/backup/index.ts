import { PRIVATE_FILE_MODE, securePrivateFile } from '../private-files.ts';
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createDatabase, type DatabaseHandle, type DatabaseKind } from '../client.ts';
import { lockDataDir } from '../data-dir-lock.ts';
import { checkDatabaseSetup, migrateDatabase, openDatabase } from '../migrate.ts';
import { selectRows } from '../transactions.ts';
import { SEEDED_BY_MIGRATIONS, quote } from './catalog.ts';
import { assertKnownMigrations, migrateToCount } from './migrations.ts';
import { dumpPostgres, loadPostgres, readDumpHeader } from './postgres-dump.ts';

/** Which database a backup reads or a restore writes: the server's own settings (`DATABASE_URL`, `DATA_DIR`). */
export interface BackupTarget {
  /** Postgres when set. */
  url?: string;
  /** The embedded database's folder otherwise (`<DATA_DIR>/pglite`). */
  dataDir: string;
}

export interface BackupSummary {
  engine: DatabaseKind;
  file: string;
  bytes: number;
  /** Rows per table at the moment of the backup. */
  rows: Record<string, number>;
}

export interface RestoreSummary {
  engine: DatabaseKind;
  /** Rows per table once restored and migrated. */
  rows: Record<string, number>;
  /** Where the embedded database that was replaced (`--force`, or an empty one) was moved. */
  previous?: string;
}

/** A restore refused before it changed anything; the message says why and what to do. */
export class RestoreRefusedError extends Error {
  override name = 'RestoreRefusedError';
}

/** Rows per table of the application's schema, counted through the system path (which sees every row). */
export async function countRows(handle: DatabaseHandle): Promise<Record<string, number>> {
  return handle.system('count rows for a backup', async (tx) => {
    const tables = await selectRows<{ name: string }>(
      tx.db,
      sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const [row] = await selectRows<{ count: number }>(
        tx.db,
        sql.raw(`select count(*)::int as count from public.${quote(name)}`),
      );
      counts[name] = row!.count;
    }
    return counts;
  });
}

/** Tables holding rows other than the ones the migrations put there. */
const occupied = (rows: Record<string, number>) =>
  Object.entries(rows).filter(([name, count]) => count > 0 && !SEEDED_BY_MIGRATIONS.includes(name));

function refuseOccupied(rows: Record<string, number>, where: string): void {
  const found = occupied(rows);
  if (found.length === 0) return;
  const list = found.map(([name, count]) => `${name}: ${count}`).join(', ');
  throw new RestoreRefusedError(
    `Not restored: ${where} is not empty (${list}). Restore into an empty database, or pass --force to replace ` +
      'everything it holds with the backup.',
  );
}

/**
 * The embedded database as it is, not migrated (a backup copies what is there; a restore checks the migrations
 * first), once PGlite has started: a unit of work goes to it directly, without waiting for it to be ready.
 */
async function openEmbedded(options: { dataDir: string; loadDataDir?: Blob }): Promise<DatabaseHandle> {
  const handle = createDatabase(options);
  try {
    await handle.pglite!.waitReady;
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

const pgVersionFile = (dataDir: string) => join(dataDir, 'PG_VERSION');

/**
 * Backs the database up into `file`: on Postgres the rows of every table (postgres-dump.ts); on the embedded
 * database PGlite's own copy of its folder (`dumpDataDir`), taken with the folder locked, so never while a server
 * has it open (ADR 0085).
 */
export async function backupDatabase(target: BackupTarget, file: string): Promise<BackupSummary> {
  if (target.url) {
    const rows = await dumpPostgres(target.url, file);
    return { engine: 'postgres', file, bytes: statSync(file).size, rows };
  }
  if (!existsSync(pgVersionFile(target.dataDir))) {
    throw new Error(`There is no embedded database in ${target.dataDir} to back up (is DATA_DIR right?)`);
  }
  const handle = await openEmbedded({ dataDir: target.dataDir });
  try {
    // A checkpoint first, so the copy needs no recovery when it is opened again.
    await handle.pglite!.exec('checkpoint');
    // Compressed here: Node's zlib takes a fraction of the time PGlite's own 'gzip' option does.
    const dump = await handle.pglite!.dumpDataDir('none');
    const partial = `${file}.partial`;
    writeFileSync(partial, gzipSync(new Uint8Array(await dump.arrayBuffer())), { mode: PRIVATE_FILE_MODE });
    securePrivateFile(partial);
    renameSync(partial, file);
    const rows = await countRows(handle);
    return { engine: 'pglite', file, bytes: statSync(file).size, rows };
  } finally {
    await handle.close();
  }
}

/** Which engine's backup `file` is: a Postgres backup starts with its header line, an embedded one is a tarball. */
async function backupKind(file: string): Promise<DatabaseKind> {
  if (await readDumpHeader(file)) return 'postgres';
  try {
    const head = gunzipSync(readFileSync(file)).subarray(257, 262).toString('latin1');
    if (head === 'ustar') return 'pglite';
  } catch {
    // Not gzip: neither kind.
  }
  throw new RestoreRefusedError(`${file} is not an AdPilot backup`);
}

/**
 * Restores `file` into the database, which must be empty (only the rows the migrations make) unless `force`; then
 * migrates it to this version and checks the setup as a server start does, and counts its rows.
 */
export async function restoreDatabase(
  target: BackupTarget,
  file: string,
  options: { force?: boolean } = {},
): Promise<RestoreSummary> {
  const kind = await backupKind(file);
  const engine: DatabaseKind = target.url ? 'postgres' : 'pglite';
  if (kind !== engine) {
    throw new RestoreRefusedError(
      kind === 'pglite'
        ? `${file} is a backup of the embedded database: restore it with DATABASE_URL unset.`
        : `${file} is a backup of a Postgres database: restore it with DATABASE_URL set to an empty Postgres database.`,
    );
  }
  return target.url ? restorePostgres(target.url, file, options) : restoreEmbedded(target.dataDir, file, options);
}

/** The application's objects in the database, gone: its tables, functions and types, the migrations' record, the queue. */
const RESET = `
do $$
declare statement text;
begin
  for statement in
    select format('drop table if exists public.%I cascade', tablename) from pg_tables where schemaname = 'public'
    union all
    select format('drop function if exists %s cascade', p.oid::regprocedure) from pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
    union all
    select format('drop type if exists public.%I cascade', t.typname) from pg_type t
     where t.typnamespace = 'public'::regnamespace and t.typtype in ('e', 'd')
       and not exists (select 1 from pg_depend d where d.objid = t.oid and d.deptype = 'e')
  loop
    execute statement;
  end loop;
end $$;
drop schema if exists drizzle cascade;
drop schema if exists pgboss cascade;`;

async function restorePostgres(url: string, file: string, options: { force?: boolean }): Promise<RestoreSummary> {
  const header = (await readDumpHeader(file))!;
  assertKnownMigrations(header.migrations);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: present } = await client.query<{ name: string }>(
      `select tablename as name from pg_tables where schemaname = 'public'`,
    );
    if (present.length > 0 && !options.force) {
      await client.query('begin; set local role adpilot_system');
      const rows: Record<string, number> = {};
      for (const { name } of present) {
        const result = await client.query<{ count: number }>(
          `select count(*)::int as count from public.${quote(name)}`,
        );
        rows[name] = result.rows[0]!.count;
      }
      await client.query('rollback');
      refuseOccupied(rows, 'the database');
    }
    // Emptied, migrated to the backup's own schema and loaded in one transaction: a restore that fails (a file cut
    // short, a row the schema refuses) leaves the database as it was.
    await client.query('begin');
    await client.query(RESET);
    await migrateToCount(client, header.migrations.length);
    await loadPostgres(client, file, header);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
  const handle = await openDatabase({ url, poolSize: 1 });
  try {
    return { engine: 'postgres', rows: await countRows(handle) };
  } finally {
    await handle.close();
  }
}

async function restoreEmbedded(dataDir: string, file: string, options: { force?: boolean }): Promise<RestoreSummary> {
  // Before anything moves: even a folder without a database yet may be a server's that is starting.
  lockDataDir(dataDir)();
  let previous: string | undefined;
  if (existsSync(pgVersionFile(dataDir))) {
    const current = await openEmbedded({ dataDir });
    try {
      if (!options.force) refuseOccupied(await countRows(current), `the embedded database in ${dataDir}`);
    } finally {
      await current.close();
    }
    // Never deleted: kept beside, for the person who finds they needed it after all.
    previous = `${dataDir}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(dataDir, previous);
  } else if (existsSync(dataDir)) {
    rmSync(dataDir, { recursive: true });
  }
  const tarball = new Blob([new Uint8Array(gunzipSync(readFileSync(file)))]);
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openEmbedded({ dataDir, loadDataDir: tarball });
    const migrations = await selectRows<{ created_at: string }>(
      handle.db,
      sql`select created_at from drizzle.__drizzle_migrations order by created_at`,
    );
    assertKnownMigrations(migrations.map((row) => Number(row.created_at)));
    await migrateDatabase(handle);
    await checkDatabaseSetup(handle);
    const rows = await countRows(handle);
    await handle.close();
    return { engine: 'pglite', rows, previous };
  } catch (error) {
    // The folder goes back to what it was.
    await handle?.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    if (previous) renameSync(previous, dataDir);
    throw error;
  }
}
