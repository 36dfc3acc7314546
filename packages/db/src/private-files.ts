import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data folder, backups and exports hold password hashes and sealed secrets: no other local user reads or
 * changes them, whatever the umask (ADR 0095). Folders 0700, files 0600, set explicitly (a mode given at creation is
 * masked by the umask, and an existing file keeps its own).
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Makes `dir` (and missing parents) and keeps `dir` itself private; an existing folder is made private too. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Makes every folder under `root` (itself included) 0700 and every file 0600; symbolic links are left alone. */
export function securePrivateTree(root: string): void {
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      chmodSync(path, PRIVATE_DIR_MODE);
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if ((stat.mode & 0o777) !== PRIVATE_FILE_MODE) {
      chmodSync(path, PRIVATE_FILE_MODE);
    }
  };
  walk(root);
}

/** Makes one file private (a backup, an export written to disk). */
export function securePrivateFile(file: string): void {
  chmodSync(file, PRIVATE_FILE_MODE);
}
