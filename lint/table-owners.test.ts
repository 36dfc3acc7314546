import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as db from '@adpilot/db';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { KNOWN_CROSSINGS, TABLE_OWNERS } from './table-owners.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const modules = readdirSync(path.join(ROOT, 'apps/server/src/modules'));
const tables = Object.entries(db)
  .filter(([, value]) => is(value, PgTable))
  .map(([name]) => name);

/** The names a file imports as values from @adpilot/db. */
function importedFromDb(file: string): string[] {
  const source = readFileSync(path.join(ROOT, file), 'utf8');
  return [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@adpilot\/db'/g)].flatMap((match) =>
    (match[1] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '' && !name.startsWith('type ')),
  );
}

describe('table ownership (lint/table-owners.js)', () => {
  it('names an owner for every table of the schema, and no table the schema lacks', () => {
    expect(tables.length).toBeGreaterThan(20);
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual([...tables].sort());
  });

  it('names only modules that exist', () => {
    for (const [table, owner] of Object.entries(TABLE_OWNERS)) expect(modules, table).toContain(owner);
  });

  it.each(Object.entries(KNOWN_CROSSINGS))('%s still needs every crossing listed for it', (file, crossing) => {
    expect(existsSync(path.join(ROOT, file)), file).toBe(true);
    const imported = importedFromDb(file);
    const module = /modules\/([^/]+)\//.exec(file)?.[1];
    for (const table of crossing) {
      expect(imported, `${file} imports ${table}`).toContain(table);
      expect(TABLE_OWNERS[table], `${table} is another module's`).not.toBe(module);
    }
  });
});
