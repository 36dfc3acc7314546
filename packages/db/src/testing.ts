import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { DatabaseHandle } from './client.ts';
import { MIGRATIONS_FOLDER, openDatabase } from './migrate.ts';
import { users, workspaceMembers, workspaces } from './schema/index.ts';

/**
 * What a migrated database is made of: every migration file and the embedded database's version. A snapshot or a
 * template database named by it is never stale: another migration (or another PGlite) is another name.
 */
function migrationsKey(): string {
  const hash = createHash('sha256');
  const pglitePackage = join(
    dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')),
    '..',
    'package.json',
  );
  hash.update(readFileSync(pglitePackage));
  const files = readdirSync(MIGRATIONS_FOLDER, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.sql') || name.endsWith('.json'))
    .sort();
  for (const name of files) hash.update(name).update(readFileSync(join(MIGRATIONS_FOLDER, name)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The file of an embedded database on which every migration ran, made once and kept in the temporary folder for
 * later runs (ADR 0068): a test file starts from it in a second instead of running initdb and every migration.
 * Written under another name and renamed, so a reader never sees half a file.
 */
export async function pgliteSnapshot(): Promise<string> {
  const folder = join(tmpdir(), 'adpilot-test-snapshots');
  const file = join(folder, `pglite-${migrationsKey()}.tar`);
  if (existsSync(file)) return file;
  const handle = await openDatabase({ dataDir: 'memory://' });
  try {
    await handle.pglite!.exec('reset role');
    const dump = await handle.pglite!.dumpDataDir('none');
    mkdirSync(folder, { recursive: true });
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await handle.close();
  }
  return file;
}

/** Any fixed number: the advisory lock under which one process builds the template database. */
const TEMPLATE_LOCK_ID = 4_242_002;

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The name of a database on the Postgres server at `serverUrl` on which every migration ran, for `create database
 * … template` (ADR 0068). Built once under another name and renamed, so a build that failed half-way is never cloned.
 */
export async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = `adpilot_template_${migrationsKey()}`;
  return withClient(serverUrl, async (admin) => {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return name;
      const building = `adpilot_building_${randomBytes(6).toString('hex')}`;
      await admin.query(`create database ${building}`);
      try {
        const url = new URL(serverUrl);
        url.pathname = `/${building}`;
        const handle = await openDatabase({ url: url.toString(), poolSize: 1 });
        await handle.close();
        await admin.query(`alter database ${building} rename to ${name}`);
      } catch (error) {
        await admin.query(`drop database if exists ${building} with (force)`);
        // Another server's run (its own lock space) renamed its build first: that one is as good.
        if ((error as { code?: string }).code !== '42P04') throw error;
      }
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]).catch(() => undefined);
    }
  });
}

/** Makes the migrated database the test files copy, on the engine they will use, if it is not there yet. */
export async function prepareTestDatabases(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) await postgresTemplate(serverUrl);
  else await pgliteSnapshot();
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on the
 * Postgres server named by TEST_DATABASE_URL (dropped again on close), so no two files share state. Both start
 * from a copy of one migrated database (a snapshot file, a template database) rather than migrating again; the
 * migrations themselves run when that copy is made, and again in database-setup.pg.test.ts.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const snapshot = readFileSync(await pgliteSnapshot());
    return openDatabase({ dataDir: 'memory://', loadDataDir: new Blob([snapshot]) });
  }
  const template = await postgresTemplate(serverUrl);
  const name = `adpilot_test_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (admin) => admin.query(`create database ${name} template ${template}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), poolSize: 4 });
  return {
    ...handle,
    async close() {
      await handle.close();
      await withClient(serverUrl, (cleanup) => cleanup.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/**
 * A person and their personal workspace, which they own, made on the system path: the scope of their own work, for
 * a test or a bench that reaches the database without the server.
 */
export async function personalWorkspace(
  database: Pick<DatabaseHandle, 'system'>,
  person: { email: string; name: string },
): Promise<{ workspaceId: string; userId: string }> {
  return database.system('test setup', async (tx) => {
    const [user] = await tx.db
      .insert(users)
      .values({ ...person, passwordHash: 'x' })
      .returning({ id: users.id });
    const [workspace] = await tx.db
      .insert(workspaces)
      .values({ name: person.name, personal: true, personalOwnerId: user!.id })
      .returning({ id: workspaces.id });
    await tx.db.insert(workspaceMembers).values({ workspaceId: workspace!.id, userId: user!.id, role: 'owner' });
    return { workspaceId: workspace!.id, userId: user!.id };
  });
}
