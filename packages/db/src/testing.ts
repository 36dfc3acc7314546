import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseHandle } from './client.ts';
import { openDatabase } from './migrate.ts';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on the
 * Postgres server named by TEST_DATABASE_URL (dropped again on close), so no two files share state.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    return openDatabase({ dataDir: 'memory://' });
  }
  const name = `adpilot_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), poolSize: 4 });
  return {
    ...handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
