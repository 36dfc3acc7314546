import { readdirSync } from 'node:fs';
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

describe('table ownership (lint/table-owners.js)', () => {
  it('names an owner for every table of the schema, and no table the schema lacks', () => {
    expect(tables.length).toBeGreaterThan(20);
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual([...tables].sort());
  });

  it('names only modules that exist', () => {
    for (const [table, owner] of Object.entries(TABLE_OWNERS)) expect(modules, table).toContain(owner);
  });

  it('lists no crossing: every module asks the owner (ADR 0066), and the list only shrinks', () => {
    expect(KNOWN_CROSSINGS).toEqual({});
  });
});
