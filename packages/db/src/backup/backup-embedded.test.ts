import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, dataDirLockFile, lockDataDir } from '../data-dir-lock.ts';
import { backupDatabase, restoreDatabase, RestoreRefusedError } from './index.ts';

const folder = mkdtempSync(join(tmpdir(), 'adpilot-backup-embedded-'));
const children: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const child of children) child.kill();
  rmSync(folder, { recursive: true, force: true });
});

/** A folder that looks like an embedded database to the backup, without starting PGlite. */
function databaseFolder(name: string): string {
  const dataDir = join(folder, name, 'pglite');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'PG_VERSION'), '17\n');
  return dataDir;
}

/** Another process, alive until the file's end, standing in for a server that has the folder open. */
async function otherProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  await once(child, 'spawn');
  return child.pid!;
}

describe('the embedded database folder', () => {
  it('is neither backed up nor restored while another process holds it', async () => {
    const dataDir = databaseFolder('held');
    const pid = await otherProcess();
    writeFileSync(dataDirLockFile(dataDir), `${pid}\n`);
    const file = join(folder, 'held.tar.gz');

    await expect(backupDatabase({ dataDir }, file)).rejects.toThrow(DataDirLockedError);
    await expect(backupDatabase({ dataDir }, file)).rejects.toThrow(`open in process ${pid}`);
    expect(existsSync(file)).toBe(false);
    // A file that passes for an embedded backup: the lock is checked before it is read.
    const tar = Buffer.alloc(1024);
    tar.write('ustar', 257, 'latin1');
    writeFileSync(file, gzipSync(tar));
    await expect(restoreDatabase({ dataDir }, file, { force: true })).rejects.toThrow(DataDirLockedError);
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('17\n');
  });

  it('takes the lock a process that has ended left behind, and gives it back', async () => {
    const dataDir = databaseFolder('stale');
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
    writeFileSync(dataDirLockFile(dataDir), `${child.pid}\n`);

    const release = lockDataDir(dataDir);
    expect(readFileSync(dataDirLockFile(dataDir), 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(dataDirLockFile(dataDir))).toBe(false);
  });

  it('refuses a file that is no backup, and a backup of a Postgres database', async () => {
    const dataDir = join(folder, 'none', 'pglite');
    const notBackup = join(folder, 'notes.txt');
    writeFileSync(notBackup, 'hello');
    await expect(restoreDatabase({ dataDir }, notBackup)).rejects.toThrow(RestoreRefusedError);
    await expect(restoreDatabase({ dataDir }, notBackup)).rejects.toThrow('is not an AdPilot backup');

    const postgresBackup = join(folder, 'postgres.jsonl.gz');
    writeFileSync(postgresBackup, gzipSync(`${JSON.stringify({ format: 'adpilot-postgres-rows', version: 1 })}\n`));
    await expect(restoreDatabase({ dataDir }, postgresBackup)).rejects.toThrow(/backup of a Postgres database/);
    expect(existsSync(dataDir)).toBe(false);
  });
});
