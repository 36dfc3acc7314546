import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as db from '@adpilot/db';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { KNOWN_CROSSINGS, TABLE_OWNERS } from './table-owners.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const modules = readdirSync(path.join(ROOT, 'apps/server/src/modules'));
const tables = Object.entries(db)
  .filter(([, value]) => is(value, PgTable))
  .map(([name]) => name);
/** The SQL name of each table (`rule_actions`) with its owner, as docs/ARCHITECTURE.md writes them. */
const sqlOwners = new Map<string, string>();
for (const [name, value] of Object.entries(db))
  if (is(value, PgTable)) sqlOwners.set(getTableName(value), TABLE_OWNERS[name] ?? '');

/** The rows of ARCHITECTURE.md's "Table ownership" table: each module and the tables its second cell names. */
function documentedOwners(): Map<string, string[]> {
  const architecture = readFileSync(path.join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
  const section = architecture.split(/^## /m).find((part) => part.startsWith('Table ownership')) ?? '';
  const listed = new Map<string, string[]>();
  for (const line of section.split('\n').filter((row) => /^\| [a-z-]+ \|/.test(row))) {
    const [, module = '', cell = ''] = line.split('|').map((part) => part.trim());
    const names = [...cell.matchAll(/`([a-z_]+)`/g)].map((match) => match[1] ?? '');
    for (const name of names.filter((candidate) => sqlOwners.has(candidate)))
      listed.set(name, [...(listed.get(name) ?? []), module]);
  }
  return listed;
}

describe('table ownership (lint/table-owners.js)', () => {
  it('names an owner for every table of the schema, and no table the schema lacks', () => {
    expect(tables.length).toBeGreaterThan(20);
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual([...tables].sort());
  });

  it('names only modules that exist', () => {
    for (const [table, owner] of Object.entries(TABLE_OWNERS)) expect(modules, table).toContain(owner);
  });

  it("is what docs/ARCHITECTURE.md says: each table once, in its owner's row", () => {
    const listed = documentedOwners();
    const wrong = [...sqlOwners].filter(([table, owner]) => listed.get(table)?.join() !== owner);
    expect(
      wrong.map(([table, owner]) => `${table}: ${owner}, documented as ${listed.get(table)?.join() ?? 'nothing'}`),
    ).toEqual([]);
  });

  it('lists no crossing: every module asks the owner (ADR 0066), and the list only shrinks', () => {
    expect(KNOWN_CROSSINGS).toEqual({});
  });
});
