// `npm run backup -- [--out <file>]`: backs up the database the server would open (DATABASE_URL set: that Postgres
// database; else the embedded one in DATA_DIR, which must not be open in a running server). ADR 0085.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { backupDatabase } from '@adpilot/db/backup';
import { databaseTarget, loadConfig } from '../config/env.ts';
import { formatBytes, printRows, runCommand, SECRET_REMINDER } from './output.ts';

// Whatever the shell's umask, what this writes is the operator's alone (ADR 0095).
process.umask(0o077);

runCommand(async () => {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const config = loadConfig();
  const target = databaseTarget(config);
  const stamp = new Date()
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  const name = target.url ? `adpilot-postgres-${stamp}.jsonl.gz` : `adpilot-embedded-${stamp}.tar.gz`;
  const file = resolve(values.out ?? join('backups', name));
  if (existsSync(file)) throw new Error(`${file} already exists: choose another --out`);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });

  const started = performance.now();
  const summary = await backupDatabase(target, file);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Backed up the ${target.url ? 'Postgres' : 'embedded'} database in ${seconds} s`);
  console.log(`  file: ${summary.file}`);
  console.log(`  size: ${formatBytes(summary.bytes)}`);
  printRows(summary.rows);
  console.log(SECRET_REMINDER);
});
