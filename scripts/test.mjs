// `npm test`: every check of the project, each started as soon as what it needs is done, each one's wall clock, the
// CPU time of the whole and the load average printed at the end (ADR 0199).
//
// Lint, the type check, the e2e build and the unit tier start at once; the unit tier waits only for the build,
// since the suites that run the server as real processes start its bundle (apps/server/src/test/processes.ts) and
// must not find it half written; lint and the type check no longer hold it back. The e2e suite follows the unit
// tier, or with TEST_E2E_BESIDE_UNIT=1 starts when the build is done, beside it: its CPU time is about half its wall
// clock (browsers and the server waiting on each other), which the unit tier would fill. The Postgres pass follows
// the unit tier. Each script's output is held and printed whole when it ends, so no two interleave; a
// script that fails skips those that wait for it, and the others run to their end so one run reports every failure.
//
// TEST_UNIT_NODE_DIR, when set, is a folder whose `node` the unit tier runs on (CI puts Node 24 there while the rest
// runs on the machine's Node 20, so each tier runs once and both versions are covered; ADR 0083).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { loadavg } from 'node:os';

/** Each script of `npm test` and the scripts it waits for. */
const TASKS = {
  lint: [],
  typecheck: [],
  'build:e2e': [],
  'test:unit': ['build:e2e'],
  'test:pg': ['test:unit'],
  // Finds the bundles built by build:e2e fresh (scripts/build-fresh.mjs) and runs Playwright. After the unit tier
  // by default: beside it, on a machine already busy, the web suites' 15 s deadlines were missed (ADR 0199);
  // TEST_E2E_BESIDE_UNIT=1 runs the two side by side.
  'test:e2e': process.env.TEST_E2E_BESIDE_UNIT === '1' ? ['build:e2e'] : ['build:e2e', 'test:unit'],
};

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);
const loads = () =>
  loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

/**
 * CPU seconds (user + system) of every child process that has ended, from Linux's /proc (clock ticks of 1/100 s), so
 * the figure on a shared machine says what the run cost apart from how long it waited; null elsewhere.
 */
function childrenCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // Fields 16 and 17 of the whole line (cutime, cstime) are the 14th and 15th after the command's name.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

// `node scripts/test.mjs --one <script>`: how each script is run, so its own CPU time can be told apart from the
// others' running beside it: this process runs it, then writes the CPU time of what it ran to file descriptor 3.
const one = process.argv.indexOf('--one');
if (one !== -1) {
  const { status, signal } = spawnSync('npm', ['run', '--silent', process.argv[one + 1]], { stdio: 'inherit' });
  writeSync(3, String(childrenCpu() ?? ''));
  process.exit(status ?? (signal ? 1 : 0));
}

/**
 * The Node a script runs on: the unit tier's own when TEST_UNIT_NODE_DIR names one, else this one. The environment
 * is otherwise the run's: where TEST_DATABASE_URL is set (CI), the unit tier too runs on Postgres, about 140 s
 * against 355 s on the embedded engine; the e2e suite runs on the embedded default either way.
 */
function environmentOf(script) {
  // The Postgres pass repeats on Postgres what the unit tier ran on the embedded engine; where the unit tier itself
  // ran on Postgres, every suite of the pass already ran there once in this `npm test` (scripts/test-pg.mjs).
  if (script === 'test:pg' && process.env.TEST_DATABASE_URL) return { ...process.env, TEST_PG_RAN_IN_UNIT_TIER: '1' };
  const folder = process.env.TEST_UNIT_NODE_DIR;
  if (script !== 'test:unit' || !folder) return process.env;
  return { ...process.env, PATH: `${folder}${delimiter}${process.env.PATH ?? ''}` };
}

const started = performance.now();
const at = () => `${seconds(started).padStart(6)} s`;

/** `npm run <script>`, its output held and printed whole at its end; answers its exit code and wall time. */
function run(script) {
  const folder = script === 'test:unit' ? process.env.TEST_UNIT_NODE_DIR : undefined;
  const on = folder ? ` on Node ${execFileSync(join(folder, 'node'), ['--version'], { encoding: 'utf8' }).trim()}` : '';
  process.stdout.write(`${at()}  start ${script}${on} (load ${loads()})\n`);
  const scriptStarted = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [import.meta.filename, '--one', script], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: environmentOf(script),
    });
    const output = [];
    let cpu = '';
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.stdio[3].on('data', (chunk) => (cpu += chunk));
    child.on('close', (code, signal) => {
      const result = { script, code: code ?? (signal ? 1 : 0), time: seconds(scriptStarted), cpu: cpu || null };
      const figures = `${result.time} s${result.cpu === null ? '' : `, CPU ${result.cpu} s`}`;
      process.stdout.write(`\n── npm run ${script}${on} (${result.code === 0 ? 'ok' : 'FAILED'}, ${figures}) ──\n`);
      process.stdout.write(Buffer.concat(output));
      process.stdout.write(`${at()}  end ${script} (load ${loads()})\n`);
      resolve(result);
    });
  });
}

const results = new Map();
const running = new Map();
/** Starts every script whose prerequisites all passed; marks skipped those with a failed one. */
function startReady() {
  for (const [script, needs] of Object.entries(TASKS)) {
    if (results.has(script) || running.has(script)) continue;
    if (needs.some((need) => results.has(need) && results.get(need).code !== 0)) {
      results.set(script, { script, code: 1, time: '-', skipped: true });
      continue;
    }
    if (!needs.every((need) => results.has(need))) continue;
    running.set(
      script,
      run(script).then((result) => {
        running.delete(script);
        results.set(script, result);
      }),
    );
  }
}
startReady();
while (running.size > 0) {
  await Promise.race(running.values());
  startReady();
}

const cpuTotal = childrenCpu();
process.stdout.write('\n── npm test: wall clock ──\n');
for (const script of Object.keys(TASKS)) {
  const { time, cpu, code, skipped } = results.get(script);
  const note = skipped ? '  (skipped: what it needs failed)' : code === 0 ? '' : '  FAILED';
  const cpuNote = cpu ? `  (CPU ${Number(cpu).toFixed(1).padStart(6)} s)` : '';
  process.stdout.write(`${script.padEnd(36)} ${time.padStart(7)} s${cpuNote}${note}\n`);
}
process.stdout.write(
  `${'total'.padEnd(36)} ${seconds(started).padStart(7)} s${cpuTotal === null ? '' : `  (CPU ${cpuTotal.toFixed(1).padStart(6)} s)`}\n`,
);
process.stdout.write(`load average at the end: ${loads()}\n`);
const failed = [...results.values()].filter((result) => result.code !== 0);
if (failed.length > 0) {
  process.stdout.write(`npm test failed: ${failed.map((result) => result.script).join(', ')}\n`);
  process.exit(1);
}
