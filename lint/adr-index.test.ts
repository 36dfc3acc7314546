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
    // `| number | [title](file) | status |`, then the optional "current" cell (the records that amend it).
    const cells = (row ?? '').split('|').map((cell) => cell.trim());
    expect(cells[3], `${name}'s status in the index`).toBe(status);
  });

  it('lists each record once', () => {
    const linked = [...index.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map((match) => match[1]);
    expect(linked.filter((name, at) => linked.indexOf(name) !== at)).toEqual([]);
  });

  it('names in the current column only records that exist', () => {
    const numbers = new Set(records.map((name) => name.slice(0, 4)));
    const current = index
      .split('\n')
      .filter((line) => /^\| \d{4} \|/.test(line))
      .flatMap(
        (line) =>
          line
            .split('|')
            .slice(4)
            .join('|')
            .match(/\b\d{4}\b/g) ?? [],
      );
    expect(current.filter((number) => !numbers.has(number))).toEqual([]);
  });

  it('lists no record that does not exist', () => {
    const linked = [...index.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map((match) => match[1]);
    expect(linked.filter((name) => !records.includes(name ?? ''))).toEqual([]);
  });
});
