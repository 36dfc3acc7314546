import type pg from 'pg';

/** One table of the application's schema as a backup writes and loads it. */
export interface TableSpec {
  name: string;
  /** Columns a row is written with: every stored column but the generated ones (those are computed again). */
  columns: string[];
  /** The primary key, by which a self-reference is set once every row of the table is in. */
  key: string[];
  /** Columns referencing the table itself (a hold's action): loaded empty, then set. */
  selfReferences: string[];
}

/** Tables the migrations fill (the plans): a database holding only those rows counts as empty. */
export const SEEDED_BY_MIGRATIONS = ['subscription_plans'];

export const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
export const qualified = (table: string) => `public.${quote(table)}`;

/** The application's tables in public, each after the tables it references. */
export async function readCatalog(client: pg.Client): Promise<TableSpec[]> {
  const { rows: columns } = await client.query<{ table: string; column: string }>(
    `select c.relname as "table", a.attname as "column"
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
        and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      order by c.relname, a.attnum`,
  );
  const { rows: constraints } = await client.query<{
    table: string;
    kind: string;
    target: string | null;
    columns: string[];
  }>(
    `select c.relname as "table", k.contype as "kind", f.relname as "target",
            array(select a.attname::text from unnest(k.conkey) with ordinality u(attnum, i)
                  join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum order by u.i) as "columns"
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
       left join pg_class f on f.oid = k.confrelid
      where n.nspname = 'public' and k.contype in ('p', 'f')`,
  );
  const specs = new Map<string, TableSpec>();
  for (const { table, column } of columns) {
    const spec = specs.get(table) ?? { name: table, columns: [], key: [], selfReferences: [] };
    spec.columns.push(column);
    specs.set(table, spec);
  }
  const references = new Map<string, Set<string>>([...specs.keys()].map((name) => [name, new Set<string>()]));
  for (const { table, kind, target, columns: keyColumns } of constraints) {
    const spec = specs.get(table);
    if (!spec) continue;
    if (kind === 'p') spec.key = keyColumns;
    else if (target === table) spec.selfReferences.push(...keyColumns);
    else if (target) references.get(table)!.add(target);
  }
  // Referenced tables first; ties by name, so two backups of one schema list the tables alike.
  const ordered: TableSpec[] = [];
  const placed = new Set<string>();
  while (ordered.length < specs.size) {
    const ready = [...specs.keys()]
      .filter((name) => !placed.has(name) && [...references.get(name)!].every((target) => placed.has(target)))
      .sort();
    if (ready.length === 0) throw new Error('The tables reference each other in a cycle: no order to load them in');
    for (const name of ready) {
      placed.add(name);
      ordered.push(specs.get(name)!);
    }
  }
  for (const spec of ordered) {
    if (spec.selfReferences.length > 0 && spec.key.length === 0) {
      throw new Error(`Table ${spec.name} references itself but has no primary key to set the reference by`);
    }
  }
  return ordered;
}

/**
 * Tables under row-level security without a policy letting the system role read every row: a dump taken through
 * that role would quietly miss their rows, so the backup refuses instead.
 */
export async function tablesHiddenFromSystem(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ table: string }>(
    `select c.relname as "table"
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relrowsecurity
        and not exists (select 1 from pg_policies p
                         where p.schemaname = 'public' and p.tablename = c.relname and p.permissive = 'PERMISSIVE'
                           and 'adpilot_system' = any(p.roles) and p.cmd in ('ALL', 'SELECT') and p.qual = 'true')
      order by 1`,
  );
  return rows.map((row) => row.table);
}
