import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client.ts';
import { openDatabase } from '../migrate.ts';
import * as schema from '../schema/index.ts';
import { createTestDatabase, pgliteSnapshot } from '../testing.ts';
import { selectRows } from '../transactions.ts';
import { backupDatabase, restoreDatabase, RestoreRefusedError, type BackupTarget } from './index.ts';
import { quote } from './catalog.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const folder = mkdtempSync(join(tmpdir(), 'adpilot-backup-'));
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(folder, { recursive: true, force: true });
});

/** Every table the schema declares: a table added later without a seeded row fails this test. */
const schemaTables = Object.values(schema)
  .filter((value) => is(value, PgTable))
  .map((table) => getTableName(table as PgTable))
  .sort();

/** A migrated instance on the engine under test: a new Postgres database, or an embedded folder of its own. */
async function instance(name: string): Promise<{ target: BackupTarget; handle: DatabaseHandle }> {
  if (onPostgres) {
    const handle = await createTestDatabase();
    cleanups.push(() => handle.close());
    return { target: { url: handle.url!, dataDir: '' }, handle };
  }
  const dataDir = join(folder, name, 'pglite');
  const handle = await openDatabase({ dataDir, loadDataDir: new Blob([readFileSync(await pgliteSnapshot())]) });
  return { target: { dataDir }, handle };
}

/** Columns a check constraint limits to a few values. */
const CHECKED: Record<string, string> = {
  'workspace_members.role': `'editor'`,
  'workspace_invitations.role': `'editor'`,
  // A seeded token references the seeded OAuth client, and only an OAuth token may.
  'api_tokens.kind': `'oauth'`,
  // A seeded action is a rule's: it has a rule and a run, as the actor check asks.
  'rule_actions.actor_type': `'rule'`,
};

/** Values that test the round trip: digits past a double's, text needing escapes, microseconds, bytes. */
function valueOf(type: string, enumLabel: string | null, table: string, column: string, n: number): string {
  const checked = CHECKED[`${table}.${column}`];
  if (checked) return checked;
  if (enumLabel) return `'${enumLabel}'`;
  if (type === 'text[]') return `array['seed, "${n}"', 'ภาษา']`;
  if (type.endsWith('[]')) return `'{}'::${type}`;
  if (type === 'uuid') return 'gen_random_uuid()';
  if (/^(text|character varying|character)/.test(type))
    return `'seed ${table}.${column} ${n}: ภาษาไทย "q" '' \\ ' || chr(10) || chr(9)`;
  if (/^(integer|smallint|bigint)$/.test(type)) return String(n);
  if (type.startsWith('numeric')) return `${n}.25`;
  if (type === 'double precision' || type === 'real') return '0.1';
  if (type === 'boolean') return 'true';
  if (type.startsWith('timestamp')) return `timestamptz '2026-11-26 09:00:00.123456+00' + interval '${n} day'`;
  if (type === 'date') return `date '2026-11-26' + ${n}`;
  if (type === 'jsonb' || type === 'json') return `'{"big": 12345678901234567890.123456789, "s": "ภาษา"}'`;
  if (type === 'bytea') return `'\\x00ff'`;
  throw new Error(`No seed value for ${table}.${column} of type ${type}: add one to backup.pg.test.ts`);
}

/**
 * One row in every table (two in a table that references itself, the second pointing at the first), every column
 * filled, a reference to another table pointing at that table's row; through the system path.
 */
async function seedEveryTable(handle: DatabaseHandle): Promise<void> {
  await handle.system('seed every table', async (tx) => {
    const columns = await selectRows<{
      table: string;
      column: string;
      type: string;
      label: string | null;
      target: string | null;
      targetColumn: string | null;
    }>(
      tx.db,
      sql`select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type",
                 (select e.enumlabel from pg_enum e where e.enumtypid = a.atttypid order by e.enumsortorder limit 1) as "label",
                 f.relname as "target", fa.attname as "targetColumn"
            from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
            left join pg_constraint k on k.conrelid = c.oid and k.contype = 'f' and a.attnum = any(k.conkey)
            left join pg_class f on f.oid = k.confrelid
            left join pg_attribute fa on fa.attrelid = k.confrelid and fa.attnum = k.confkey[array_position(k.conkey, a.attnum)]
           where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
           order by c.relname, a.attnum`,
    );
    const byTable = new Map<string, typeof columns>();
    for (const column of columns) byTable.set(column.table, [...(byTable.get(column.table) ?? []), column]);
    const seeded = new Set<string>();
    const insertRow = async (table: string, n: number) => {
      const list = byTable.get(table)!;
      const values = list.map((column) => {
        if (column.target === table) {
          return n === 1 ? 'null' : `(select ${quote(column.targetColumn!)} from public.${quote(table)} limit 1)`;
        }
        if (column.target) return `(select ${quote(column.targetColumn!)} from public.${quote(column.target)} limit 1)`;
        return valueOf(column.type, column.label, table, column.column, n);
      });
      await tx.db.execute(
        sql.raw(
          `insert into public.${quote(table)} (${list.map((column) => quote(column.column)).join(', ')}) values (${values.join(', ')})`,
        ),
      );
    };
    // Referenced tables first.
    while (seeded.size < byTable.size) {
      const ready = [...byTable.keys()].filter(
        (table) =>
          !seeded.has(table) &&
          byTable.get(table)!.every((column) => !column.target || column.target === table || seeded.has(column.target)),
      );
      expect(ready.length, 'tables left in a reference cycle').toBeGreaterThan(0);
      for (const table of ready) {
        await insertRow(table, 1);
        if (byTable.get(table)!.some((column) => column.target === table)) await insertRow(table, 2);
        seeded.add(table);
      }
    }
  });
}

/** Every table's row count and a hash of its rows (as JSON, sorted), through the system path. */
async function fingerprint(handle: DatabaseHandle): Promise<Record<string, string>> {
  return handle.system('fingerprint', async (tx) => {
    const result: Record<string, string> = {};
    for (const table of schemaTables) {
      const [row] = await selectRows<{ count: number; hash: string }>(
        tx.db,
        sql.raw(
          `select count(*)::int as count, md5(coalesce(string_agg(r, E'\\n' order by r), '')) as hash
             from (select row_to_json(t)::text as r from public.${quote(table)} t) s`,
        ),
      );
      result[table] = `${row!.count} ${row!.hash}`;
    }
    return result;
  });
}

describe(`backup and restore (${onPostgres ? 'Postgres' : 'embedded'})`, () => {
  it('restores every row of every table into an empty instance, and refuses a non-empty one without force', async () => {
    const source = await instance('source');
    await seedEveryTable(source.handle);
    const before = await fingerprint(source.handle);
    expect(Object.keys(before).filter((table) => before[table]!.startsWith('0 '))).toEqual([]);
    // The embedded folder is locked while open: it is backed up once its "server" has stopped.
    if (!onPostgres) await source.handle.close();

    const file = join(folder, onPostgres ? 'backup.jsonl.gz' : 'backup.tar.gz');
    const backup = await backupDatabase(source.target, file);
    expect(Object.keys(backup.rows).sort()).toEqual(schemaTables);
    expect(backup.bytes).toBeGreaterThan(0);

    // An empty instance: a new database migrated by a first start, or a new DATA_DIR.
    const target: BackupTarget = onPostgres
      ? (await instance('target')).target
      : { dataDir: join(folder, 'target', 'pglite') };
    const restored = await restoreDatabase(target, file);
    expect(restored.rows).toEqual(backup.rows);
    const reopened = await openDatabase(target);
    try {
      expect(await fingerprint(reopened)).toEqual(before);
    } finally {
      await reopened.close();
    }

    const refusal = await restoreDatabase(target, file).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RestoreRefusedError);
    expect((refusal as Error).message).toMatch(/not empty \(.*users: 1.*pass --force/);
    const forced = await restoreDatabase(target, file, { force: true });
    expect(forced.rows).toEqual(backup.rows);
    // The embedded database it replaced is kept beside, never deleted.
    if (!onPostgres) expect(existsSync(join(forced.previous!, 'PG_VERSION'))).toBe(true);
  }, 60_000);

  it.skipIf(!onPostgres)('restores nothing from a file cut short: the database stays as it was', async () => {
    const source = await instance('short-source');
    await seedEveryTable(source.handle);
    const file = join(folder, 'whole.jsonl.gz');
    await backupDatabase(source.target, file);
    // Every line but the last, which says the file is whole.
    const lines = gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
    const short = join(folder, 'short.jsonl.gz');
    writeFileSync(short, gzipSync(lines.slice(0, -1).join('\n')));

    const before = await fingerprint(source.handle);
    await expect(restoreDatabase(source.target, short, { force: true })).rejects.toThrow(/cut short/);
    expect(await fingerprint(source.handle)).toEqual(before);
  });
});
