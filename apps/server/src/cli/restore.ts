// `npm run restore -- <file> [--force]`: restores a backup into the database the server would open, which must be
// empty unless --force; then migrates and checks it as a server start does. ADR 0085.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { restoreDatabase } from '@adpilot/db/backup';
import { databaseTarget, loadConfig } from '../config/env.ts';
import { printRows, runCommand, SECRET_REMINDER } from './output.ts';

// Whatever the shell's umask, the restored data folder is the operator's alone (ADR 0095).
process.umask(0o077);

runCommand(async () => {
  const { values, positionals } = parseArgs({
    options: { force: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new Error('Usage: npm run restore -- <backup file> [--force]');
  const file = resolve(positionals[0]!);
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  const config = loadConfig();
  const target = databaseTarget(config);

  const started = performance.now();
  const summary = await restoreDatabase(target, file, { force: values.force });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Restored ${file} into the ${target.url ? 'Postgres database' : `embedded database in ${target.dataDir}`} ` +
      `(${seconds} s), migrated and checked`,
  );
  if (summary.previous) console.log(`  the database it replaced is kept in ${summary.previous}`);
  printRows(summary.rows);
  console.log(SECRET_REMINDER);
});
