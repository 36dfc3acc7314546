import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The embedded database's folder is open in another process; the message names it. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The file beside the folder that names the process holding it: `<DATA_DIR>/pglite.lock`. */
export const dataDirLockFile = (dataDir: string) => `${dataDir.replace(/\/+$/, '')}.lock`;

/** The process holding the folder, if one is alive; a lock left by a process that died does not count. */
export function dataDirHolder(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(dataDirLockFile(dataDir), 'utf8'), 10);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  return alive(pid) ? pid : undefined;
}

/**
 * Marks the embedded database's folder as open in this process. PGlite runs Postgres inside one process and takes no
 * lock of its own: a second process writing the same folder (a second server, a backup while the server runs) would
 * corrupt it, so it is refused here. Answers the release.
 */
export function lockDataDir(dataDir: string): () => void {
  const holder = dataDirHolder(dataDir);
  if (holder !== undefined) {
    throw new DataDirLockedError(
      `The embedded database in ${dataDir} is open in process ${holder} (an AdPilot server?): stop it first.`,
    );
  }
  const file = dataDirLockFile(dataDir);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${process.pid}\n`);
  return () => {
    try {
      if (Number.parseInt(readFileSync(file, 'utf8'), 10) === process.pid) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
}
