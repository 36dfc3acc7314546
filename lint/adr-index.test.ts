import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '..', 'docs', 'adr');
const records = readdirSync(dir).filter((name) => /^\d{4}-.+\.md$/.test(name));
const index = readFileSync(join(dir, 'README.md'), 'utf8');

describe('the ADR index (docs/adr/README.md)', () => {
  it.each(records)('lists %s with the status the record states', (name) => {
    const status = /^Status:\s*(.+)$/m.exec(readFileSync(join(dir, name), 'utf8'))?.[1]?.trim();
    expect(status, `${name} states its status`).toBeTruthy();
    const row = index.split('\n').find((line) => line.includes(`](${name})`));
    expect(row, `${name} is in the index`).toBeDefined();
    expect(row?.trim().endsWith(`| ${status} |`), `${name}'s status in the index`).toBe(true);
  });

  it('lists no record that does not exist', () => {
    const linked = [...index.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map((match) => match[1]);
    expect(linked.filter((name) => !records.includes(name ?? ''))).toEqual([]);
  });
});
