import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDatabase } from './backup/index.ts';
import { createDatabase } from './client.ts';
import { migrateDatabase } from './migrate.ts';

/** Every folder and file under `root` with its permission bits, as "path mode". */
function modes(root: string): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    const stat = statSync(path);
    out.push(`${path.slice(root.length) || '/'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return out;
}

/**
 * ADR 0095: the embedded database's folder and a backup are private (folders 0700, files 0600) even when the
 * process's umask would leave them open to every local user.
 */
describe('files on disk under umask 0000', () => {
  let previous: number;
  let root: string;
  beforeAll(() => {
    previous = process.umask(0o000);
    root = mkdtempSync(join(tmpdir(), 'adpilot-modes-'));
  });
  afterAll(() => {
    process.umask(previous);
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps the data folder 0700 and its files 0600, and so the backup', async () => {
    const dataDir = join(root, 'data');
    const database = createDatabase({ dataDir });
    await migrateDatabase(database);
    await database.db.execute('select 1');
    await database.close();
    const open = modes(dataDir).filter((line) => !/ (700|600)$/.test(line));
    expect(open).toEqual([]);
    expect(modes(dataDir).length).toBeGreaterThan(50);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);

    const file = join(root, 'backup.tar.gz');
    await backupDatabase({ dataDir }, file);
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(modes(dataDir).filter((line) => !/ (700|600)$/.test(line))).toEqual([]);
  }, 120_000);
});
