// Runs again on real Postgres, when TEST_DATABASE_URL is set (CI sets it), the suites whose outcome can differ
// between the engines: row-level security and roles, migrations, locks and leases, LISTEN/NOTIFY across processes,
// pg-boss's delivery, atomic counters under concurrency, SQL features (aggregates, date arithmetic, cursors), plus
// a smoke of every module (a module with such a suite needs no other). Everything else ran once on PGlite already
// (ADR 0063, 0068). Each test file creates and drops its own database on that server, a copy of one template
// database the run migrates once (packages/db/src/testing.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

/**
 * The suites that run on both engines are named so: `*.pg.test.ts` (ADR 0198). Every other suite of the node tier
 * runs on the embedded engine only: pure code, HTTP shape, providers, or a module's own logic once another suite of
 * the module ran on Postgres (ADR 0068). The name is the whole placement: no list to keep beside the files.
 */
const ON_POSTGRES_SUFFIX = '.pg.test.ts';
/** The folders of the vitest projects that run on a database (vitest.config.ts's `node` and `node-alone`). */
const ROOTS = ['packages', 'apps/server/src', 'lint'];
const SKIPPED = new Set(['node_modules', 'dist', 'coverage']);

function filesUnder(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = `${folder}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

const files = ROOTS.flatMap(filesUnder);
const onPostgres = files.filter((file) => file.endsWith(ON_POSTGRES_SUFFIX)).sort();
// A name that means the Postgres tier but would not be picked up (`x.pg.test.tsx`, `x.pg.spec.ts`, `x.postgres.test.ts`,
// a `.pg.` suite outside src/ where vitest would not find it) fails here, not silently on the embedded engine only.
const misnamed = files.filter(
  (file) =>
    /\.(pg|postgres)\.(test|spec)\.[cm]?[jt]sx?$/.test(file) &&
    !(file.endsWith(ON_POSTGRES_SUFFIX) && /^(packages\/[^/]+\/src|apps\/server\/src)\//.test(file)),
);
if (misnamed.length > 0) {
  for (const file of misnamed) {
    console.error(`test:pg: ${file} looks meant for Postgres but only *${ON_POSTGRES_SUFFIX} under src/ runs there`);
  }
  process.exit(1);
}
// `--check` (part of `npm run lint`): the names alone, so a misnamed suite fails in seconds, not at the end.
if (process.argv.includes('--check')) process.exit(0);

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.warn('test:pg skipped: TEST_DATABASE_URL is not set (the same suites already ran on PGlite)');
  process.exit(0);
}
if (process.env.TEST_PG_RAN_IN_UNIT_TIER) {
  // `npm test` with TEST_DATABASE_URL set (CI): the unit tier ran every suite on that server already, the
  // `*.pg.test.ts` ones included; running them again would only repeat them (about 130 s in CI).
  console.log(
    `test:pg: the unit tier of this run ran on Postgres: the ${onPostgres.length} *${ON_POSTGRES_SUFFIX} suites ran there`,
  );
  process.exit(0);
}
const result = spawnSync('npx', ['vitest', 'run', '--project', 'node', '--project', 'node-alone', ...onPostgres], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: url },
});
process.exit(result.status ?? 1);
