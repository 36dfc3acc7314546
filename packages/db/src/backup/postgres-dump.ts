import { PRIVATE_FILE_MODE, securePrivateFile } from '../private-files.ts';
import { once } from 'node:events';
import { createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import { qualified, quote, readCatalog, tablesHiddenFromSystem, type TableSpec } from './catalog.ts';

/** The first line of a Postgres backup; everything a restore must know before it reads a row. */
export interface DumpHeader {
  format: typeof DUMP_FORMAT;
  version: 1;
  createdAt: string;
  /** `created_at` of every applied migration, in order: the schema the rows fit. */
  migrations: number[];
  /** In load order: every table after the tables it references. */
  tables: TableSpec[];
}

/** The last line: the rows written per table. A file without it was cut short and is refused. */
interface DumpEnd {
  end: true;
  rows: Record<string, number>;
}

export const DUMP_FORMAT = 'adpilot-postgres-rows';

/** Rows fetched from a cursor, and loaded by one statement, at a time. */
const BATCH = 500;

/**
 * Writes every row of the application's tables to `file` (gzip, one JSON document a line): a header, then for each
 * table in load order a `# {"table": …}` line and its rows as `row_to_json` text, never parsed here, so numbers keep
 * every digit. One read-only repeatable-read transaction makes it one consistent snapshot. The catalog and the
 * migrations are read as the login user (the owner); the rows as `adpilot_system`, whose policies let it through
 * every row: the owner itself sees none of a table that forces row-level security. ADR 0085.
 */
export async function dumpPostgres(url: string, file: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const partial = `${file}.partial`;
  const gzip = createGzip();
  const written = gzip.pipe(createWriteStream(partial, { mode: PRIVATE_FILE_MODE }));
  const write = async (line: string) => {
    if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
  };
  const rows: Record<string, number> = {};
  try {
    await client.query('begin isolation level repeatable read, read only');
    const hidden = await tablesHiddenFromSystem(client);
    if (hidden.length > 0) {
      throw new Error(`No policy lets the system role read every row of: ${hidden.join(', ')}. Not backed up.`);
    }
    const { rows: migrations } = await client.query<{ created_at: string }>(
      'select created_at from drizzle.__drizzle_migrations order by created_at',
    );
    const tables = await readCatalog(client);
    const header: DumpHeader = {
      format: DUMP_FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      migrations: migrations.map((row) => Number(row.created_at)),
      tables,
    };
    await write(JSON.stringify(header));
    await client.query('set local role adpilot_system');
    for (const table of tables) {
      await write(`# ${JSON.stringify({ table: table.name })}`);
      const columns = table.columns.map(quote).join(', ');
      await client.query(
        `declare backup_rows no scroll cursor for select row_to_json(r)::text as row from (select ${columns} from ${qualified(table.name)}) r`,
      );
      let count = 0;
      for (;;) {
        const batch = await client.query<{ row: string }>(`fetch ${BATCH} from backup_rows`);
        for (const { row } of batch.rows) await write(row);
        count += batch.rows.length;
        if (batch.rows.length < BATCH) break;
      }
      await client.query('close backup_rows');
      rows[table.name] = count;
    }
    await client.query('commit');
    const end: DumpEnd = { end: true, rows };
    await write(`# ${JSON.stringify(end)}`);
    gzip.end();
    await once(written, 'close');
    securePrivateFile(partial);
    renameSync(partial, file);
    return rows;
  } catch (error) {
    gzip.destroy();
    written.destroy();
    rmSync(partial, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The lines of a Postgres backup, the header first. */
export async function* readDump(file: string): AsyncGenerator<string> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield line;
}

/** The header of a Postgres backup, or undefined when the file is not one (not gzip, or another first line). */
export async function readDumpHeader(file: string): Promise<DumpHeader | undefined> {
  try {
    for await (const line of readDump(file)) {
      const header = JSON.parse(line) as Partial<DumpHeader>;
      return header.format === DUMP_FORMAT ? (header as DumpHeader) : undefined;
    }
  } catch {
    // Not gzip, or not JSON: not a Postgres backup.
  }
  return undefined;
}

/**
 * Loads a backup's rows into the tables of `client`'s database, which the caller has migrated to the backup's
 * migrations, in the caller's transaction. The owner turns the tables' own triggers off for the load (the
 * rows come with the sequence numbers and counters those triggers would write) and `adpilot_system` inserts them, so
 * the policies' checks run as for any write of the system path. Throws when the file ends before its last line or a
 * table's count differs from the one written.
 */
export async function loadPostgres(
  client: pg.Client,
  file: string,
  header: DumpHeader,
): Promise<Record<string, number>> {
  const specs = new Map(header.tables.map((table) => [table.name, table]));
  // The rows the migrations made (the plans) are in the backup too, as they were when it was taken.
  await client.query(`truncate ${header.tables.map((table) => qualified(table.name)).join(', ')}`);
  for (const table of header.tables) await client.query(`alter table ${qualified(table.name)} disable trigger user`);
  await client.query('set local role adpilot_system');
  const loaded: Record<string, number> = {};
  let table: TableSpec | undefined;
  let batch: string[] = [];
  // Rows whose reference to their own table is set once the whole table is in.
  let referencing: string[] = [];
  let end: DumpEnd | undefined;

  const insert = async () => {
    if (!table || batch.length === 0) return;
    const columns = table.columns.filter((column) => !table!.selfReferences.includes(column)).map(quote);
    const result = await client.query(
      `insert into ${qualified(table.name)} (${columns.join(', ')}) select ${columns.join(', ')} from json_populate_recordset(null::${qualified(table.name)}, $1::json)`,
      [`[${batch.join(',')}]`],
    );
    loaded[table.name] = (loaded[table.name] ?? 0) + (result.rowCount ?? 0);
    batch = [];
  };
  const setSelfReferences = async () => {
    if (!table || table.selfReferences.length === 0) return;
    const set = table.selfReferences.map((column) => `${quote(column)} = s.${quote(column)}`).join(', ');
    const match = table.key.map((column) => `t.${quote(column)} = s.${quote(column)}`).join(' and ');
    for (let start = 0; start < referencing.length; start += BATCH) {
      await client.query(
        `update ${qualified(table.name)} t set ${set} from json_populate_recordset(null::${qualified(table.name)}, $1::json) s where ${match}`,
        [`[${referencing.slice(start, start + BATCH).join(',')}]`],
      );
    }
    referencing = [];
  };

  let first = true;
  for await (const line of readDump(file)) {
    if (first) {
      first = false;
      continue;
    }
    if (line.startsWith('# ')) {
      await insert();
      await setSelfReferences();
      const marker = JSON.parse(line.slice(2)) as { table?: string } | DumpEnd;
      if ('end' in marker) {
        end = marker;
        break;
      }
      table = specs.get(marker.table ?? '');
      if (!table) throw new Error(`The backup has rows of a table its header does not list: ${marker.table}`);
      continue;
    }
    if (!table) throw new Error('The backup has rows before the first table');
    batch.push(line);
    if (table.selfReferences.length > 0) {
      // Only to see whether the reference is set; the row itself stays the text it was written as.
      const row = JSON.parse(line) as Record<string, unknown>;
      if (table.selfReferences.some((column) => row[column] !== null)) referencing.push(line);
    }
    if (batch.length >= BATCH) await insert();
  }
  if (!end) throw new Error('The backup file ends before its last line: it was cut short, nothing was restored');
  for (const [name, count] of Object.entries(end.rows)) {
    if ((loaded[name] ?? 0) !== count) {
      throw new Error(`Table ${name}: the backup holds ${count} rows but ${loaded[name] ?? 0} were loaded`);
    }
  }
  await client.query('reset role');
  for (const table of header.tables) await client.query(`alter table ${qualified(table.name)} enable trigger user`);
  return end.rows;
}
