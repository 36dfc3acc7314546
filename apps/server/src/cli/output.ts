/** What the backup and restore commands print besides their own lines. */

export const SECRET_REMINDER =
  'Keep the application secret with the backup (APP_SECRET, or the file DATA_DIR/app-secret): the backup does not ' +
  'hold it, and without it the access tokens and other secrets stored encrypted in the database cannot be read.';

const numbers = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${numbers.format(bytes)} B`;
  if (bytes < 1024 * 1024) return `${numbers.format(bytes / 1024)} KiB`;
  return `${numbers.format(bytes / 1024 / 1024)} MiB`;
}

/** Rows per table, one table a line, the counts aligned. */
export function printRows(rows: Record<string, number>): void {
  const names = Object.keys(rows).sort();
  const width = Math.max(...names.map((name) => name.length));
  const total = Object.values(rows).reduce((sum, count) => sum + count, 0);
  console.log(`  rows: ${numbers.format(total)} in ${names.length} tables`);
  for (const name of names) console.log(`    ${name.padEnd(width)}  ${numbers.format(rows[name]!).padStart(9)}`);
}

/** Runs a command; a failure prints its message alone (no stack: the messages say what to do) and exits 1. */
export function runCommand(command: () => Promise<void>): void {
  command().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
