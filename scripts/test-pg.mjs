// Runs the database-backed suites again on real Postgres when TEST_DATABASE_URL is set (CI sets it).
// Each test file creates and drops its own database on that server.
import { spawnSync } from 'node:child_process';

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.warn('test:pg skipped: TEST_DATABASE_URL is not set (the same suites already ran on PGlite)');
  process.exit(0);
}
const result = spawnSync('npx', ['vitest', 'run', '--project', 'node', 'packages/db', 'apps/server'], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: url },
});
process.exit(result.status ?? 1);
