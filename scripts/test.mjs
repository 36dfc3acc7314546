// `npm test`: every check of the project, in stages, each stage's wall clock and the total printed at the end.
//
// The first stage runs lint, the type check and the e2e build side by side: each is mostly one process on one core,
// and none reads what another writes. Their outputs are held and printed whole, one after the other, as each ends,
// so no two interleave. The later stages run one at a time with their output as it comes: the unit and API tests,
// the Postgres pass and the e2e suite each use every core. The first failing stage ends the run (as `&&` would),
// after the stage it is in has finished.
//
// TEST_UNIT_NODE_DIR, when set, is a folder whose `node` the unit tier runs on (CI puts Node 24 there while the rest
// runs on the machine's Node 20, so each tier runs once and both versions are covered; ADR 0083).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { loadavg } from 'node:os';

const STAGES = [
  ['lint', 'typecheck', 'build:e2e'],
  ['test:unit'],
  ['test:pg'],
  // Finds the bundles built in the first stage fresh (scripts/build-fresh.mjs) and runs Playwright.
  ['test:e2e'],
];

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);

/**
 * CPU seconds (user + system) of every child process that has ended, from Linux's /proc (clock ticks of 1/100 s), so
 * a stage's figure on a shared machine says what it cost apart from how long it waited; null elsewhere.
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

/** `npm run <script>`; answers its exit code and its wall time, its output held when `held`. */
function run(script, held) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: environmentOf(script),
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const result = { script, code: code ?? (signal ? 1 : 0), time: seconds(started) };
      if (held) {
        process.stdout.write(`\n── npm run ${script} (${result.code === 0 ? 'ok' : 'FAILED'}, ${result.time} s) ──\n`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve(result);
    });
  });
}

const started = performance.now();
const results = [];
for (const stage of STAGES) {
  const held = stage.length > 1;
  if (!held) {
    const folder = stage[0] === 'test:unit' ? process.env.TEST_UNIT_NODE_DIR : undefined;
    const on = folder
      ? ` (on Node ${execFileSync(join(folder, 'node'), ['--version'], { encoding: 'utf8' }).trim()})`
      : '';
    process.stdout.write(`\n── npm run ${stage[0]}${on} ──\n`);
  }
  const stageStarted = performance.now();
  const cpuBefore = childrenCpu();
  const ended = await Promise.all(stage.map((script) => run(script, held)));
  const cpu = cpuBefore === null ? null : (childrenCpu() - cpuBefore).toFixed(1);
  results.push({
    stage: stage.join(' + '),
    time: seconds(stageStarted),
    cpu,
    failed: ended.filter((r) => r.code !== 0),
  });
  if (held) for (const { script, time } of ended) results.push({ stage: `  ${script}`, time, cpu: null, failed: [] });
  if (ended.some((r) => r.code !== 0)) break;
}

const failed = results.flatMap((result) => result.failed);
const cpuTotal = childrenCpu();
const row = (name, time, cpu) =>
  `${name.padEnd(36)} ${time.padStart(7)} s${cpu === null ? '' : `  (CPU ${cpu.padStart(6)} s)`}\n`;
process.stdout.write('\n── npm test: wall clock ──\n');
for (const { stage, time, cpu } of results) process.stdout.write(row(stage, time, cpu));
process.stdout.write(row('total', seconds(started), cpuTotal === null ? null : cpuTotal.toFixed(1)));
process.stdout.write(
  `load average at the end: ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}\n`,
);
if (failed.length > 0) {
  process.stdout.write(`npm test failed: ${failed.map((r) => r.script).join(', ')}\n`);
  process.exit(1);
}
