// The rule-cycle bench on real processes: the Meta sandbox in a process of its own (bench/sandbox-process.ts), the
// setup (the advertiser, the accounts' first syncs, the rules) in this process on a fresh Postgres database, then
// RULES_CYCLE_WORKERS worker processes of the real server (`ROLE=worker`, `main.ts` through tsx, NODE_ENV=production)
// on that database, calling the sandbox as their Meta. Every mirror is made older than the rules' 15 minutes, the
// minute tick is enqueued as a worker's clock would, and the slot is over when every run has finished: its wall time
// runs from the tick to the last run's end in the database. Each worker times the runner's steps
// (bench/rules-cycle-worker-spans.ts) and writes them out when asked.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { RULE_RUN_JOB, RULE_TICK_JOB } from '../apps/server/src/modules/rules/rules.jobs.ts';
import { freePort, ready, until } from '../apps/server/src/test/processes.ts';
import { spanReport, sumSpans, type SpanTotals } from './rules-cycle-spans.ts';
import {
  ACCOUNTS,
  ADS,
  createRules,
  HISTORY_DAYS,
  LATENCY,
  PER_WORKER,
  SETUP_CONCURRENCY,
  SETUP_PROCESSES,
  WORKERS,
} from './rules-cycle-setup.ts';
import { cpuSeconds, rssMb } from './soak-cluster.ts';
import { BENCH_APP_SECRET, startBenchAppOn } from './sandbox-app.ts';
import type { SandboxAnswer, SandboxRequest } from './sandbox-process.ts';
import type { FirstSyncsAnswer, FirstSyncsRequest } from './rules-cycle-first-syncs.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const MAIN = here('../apps/server/src/main.ts');
const SLOT_MS = 15 * 60_000;

// --- The sandbox's process.
const sandboxChild = spawn(process.execPath, ['--import', 'tsx', here('./sandbox-process.ts')], {
  env: {
    ...process.env,
    BENCH_SANDBOX_ACCOUNTS: String(ACCOUNTS),
    BENCH_SANDBOX_ADS: String(ADS),
    ...(HISTORY_DAYS ? { BENCH_SANDBOX_HISTORY_DAYS: String(HISTORY_DAYS) } : {}),
  },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const answers: SandboxAnswer[] = [];
const waiting: { resolve: (answer: SandboxAnswer) => void; reject: (error: Error) => void }[] = [];
sandboxChild.on('message', (answer: SandboxAnswer) => {
  const next = waiting.shift();
  if (next) next.resolve(answer);
  else answers.push(answer);
});
sandboxChild.on('exit', (code) => {
  for (const next of waiting.splice(0)) next.reject(new Error(`the sandbox's process exited (${code})`));
});
const nextAnswer = () =>
  new Promise<SandboxAnswer>((resolve, reject) => {
    const queued = answers.shift();
    if (queued) resolve(queued);
    else waiting.push({ resolve, reject });
  });
const ask = async <T extends SandboxAnswer['type']>(request: SandboxRequest & { type: T }) => {
  sandboxChild.send(request);
  return (await nextAnswer()) as Extract<SandboxAnswer, { type: T }>;
};
const graph = (await nextAnswer()) as Extract<SandboxAnswer, { type: 'ready' }>;

const databaseUrlOf = (database: { url?: string }): string => {
  if (!database.url) throw new Error('the bench database has no address');
  return database.url;
};

/**
 * The accounts' first syncs, shared in turn among SETUP_PROCESSES processes of their own
 * (bench/rules-cycle-first-syncs.ts), each SETUP_CONCURRENCY at once; answers their CPU seconds. Any sync that does
 * not sync fails the bench.
 */
async function firstSyncsInProcesses(databaseUrl: string, workspaceId: string, accounts: string[]): Promise<number> {
  const shares = Array.from({ length: Math.min(SETUP_PROCESSES, accounts.length) }, (_, index) =>
    accounts.filter((_, i) => i % SETUP_PROCESSES === index),
  );
  const cpu = await Promise.all(
    shares.map(async (share) => {
      const child = spawn(process.execPath, ['--import', 'tsx', here('./rules-cycle-first-syncs.ts')], {
        env: process.env,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const exited = once(child, 'exit');
      try {
        const request: FirstSyncsRequest = { graph, databaseUrl, workspaceId, accounts: share };
        child.send(request);
        const answer = await Promise.race([
          once(child, 'message').then(([message]) => message as FirstSyncsAnswer),
          exited.then(([code]) => ({ type: 'failed', error: `exited (${String(code)})` }) as FirstSyncsAnswer),
        ]);
        if (answer.type === 'failed') throw new Error(`a setup process's first syncs: ${answer.error}`);
        return answer.cpuSeconds;
      } finally {
        if (child.exitCode === null) {
          child.kill('SIGTERM');
          await exited;
        }
      }
    }),
  );
  return cpu.reduce((sum, seconds) => sum + seconds, 0);
}

/** What is left to stop or remove, last first, whether the bench ends well or not. */
const cleanups: (() => Promise<unknown>)[] = [
  async () => {
    sandboxChild.disconnect();
    if (sandboxChild.exitCode === null) await once(sandboxChild, 'exit');
  },
];
try {
  // --- The setup, in this process: the advertiser, the first syncs (several at once), the rules.
  const setupStarted = performance.now();
  const bench = await startBenchAppOn(graph, { accounts: ACCOUNTS, keepDatabase: true });
  cleanups.push(() => bench.database.close());
  const { app, connected, workspaceId, database } = bench;
  const connectedAt = performance.now();
  const sandboxCpuAtSetup = cpuSeconds(sandboxChild.pid);
  const syncCpu = await firstSyncsInProcesses(databaseUrlOf(database), workspaceId, connected);
  const syncedAt = performance.now();
  const setupCpu = [syncCpu, cpuSeconds(sandboxChild.pid) - sandboxCpuAtSetup];
  // The first syncs of many accounts outlast the access token the setup signed in with.
  await createRules(app, await bench.signIn(), connected, { transactions: database, workspaceId });
  const rulesAt = performance.now();
  await bench.close();
  const databaseUrl = databaseUrlOf(database);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  cleanups.push(() => db.end());
  const one = async <T>(text: string, values: unknown[] = []) => (await db.query(text, values)).rows[0] as T;
  const { rules } = await one<{ rules: number }>(`select count(*)::int as rules from automation_rules where is_active`);
  console.log(
    `rules-cycle setup: ${ACCOUNTS} accounts synced and ${rules} rules written in ` +
      `${((performance.now() - setupStarted) / 1000).toFixed(0)} s (connected in ` +
      `${((connectedAt - setupStarted) / 1000).toFixed(0)} s, first-synced in ` +
      `${((syncedAt - connectedAt) / 1000).toFixed(0)} s in ${SETUP_PROCESSES} processes, ${SETUP_CONCURRENCY} at once ` +
      `each, CPU ${setupCpu[0]!.toFixed(1)} s in them and ` +
      `${setupCpu[1]!.toFixed(1)} s in the sandbox; rules in ${((rulesAt - syncedAt) / 1000).toFixed(0)} s)`,
  );

  // A slot whose end would fall inside the cycle would let the workers' own minute tick start the next slot's runs on
  // top of it: with under 4 minutes of this one left (`RULES_CYCLE_SLOT_MINUTES`, e.g. 14 for a cycle that may take
  // most of a slot), the cycle waits for the next.
  const leftInSlot = SLOT_MS - (Date.now() % SLOT_MS);
  const slotMinutes = Number(process.env.RULES_CYCLE_SLOT_MINUTES ?? 4);
  if (!(slotMinutes > 0 && slotMinutes <= 15)) throw new Error('RULES_CYCLE_SLOT_MINUTES is 1 to 15');
  if (leftInSlot < slotMinutes * 60_000) {
    console.log(`rules-cycle: waiting ${(leftInSlot / 1000).toFixed(0)} s for the next 15-minute slot`);
    await new Promise((resolve) => setTimeout(resolve, leftInSlot + 2_000));
  }
  // Every mirror older than the rules' 15 minutes: each account needs one refresh.
  await db.query(`update ad_accounts set last_sync = last_sync - interval '20 minutes'`);

  // --- The worker processes.
  const dataDir = mkdtempSync(join(tmpdir(), 'adpilot-rules-cycle-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  interface Worker {
    name: string;
    child: ChildProcess;
    probe: number;
    spansFile: string;
    output: string[];
    exited: Promise<number | null>;
  }
  const workers: Worker[] = [];
  // Whatever a failure leaves running is killed; a bench that ends well has stopped them gracefully first.
  cleanups.push(async () => {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await Promise.all(workers.map((worker) => worker.exited));
  });
  for (let index = 1; index <= WORKERS; index += 1) {
    const probe = await freePort();
    const spansFile = join(dataDir, `spans-${index}.json`);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', here('./rules-cycle-worker-spans.ts'), MAIN],
      {
        env: {
          PATH: process.env.PATH ?? '',
          ROLE: 'worker',
          NODE_ENV: 'production',
          LOG_LEVEL: 'warn',
          HOST: '127.0.0.1',
          HEALTH_PORT: String(probe),
          DATABASE_URL: databaseUrl,
          APP_SECRET: BENCH_APP_SECRET,
          DATA_DIR: dataDir,
          PUBLIC_URL: 'http://127.0.0.1:9',
          // The sandbox's process is the workers' Meta: its app, its address.
          META_APP_ID: graph.appId,
          META_APP_SECRET: graph.appSecret,
          META_GRAPH_URL: graph.url,
          META_DIALOG_URL: graph.url,
          RULES_CYCLE_SPANS_FILE: spansFile,
          RULE_RUN_CONCURRENCY: String(PER_WORKER),
          // Each run holds a connection while it writes; the pool keeps room for the queue's own.
          DATABASE_POOL_SIZE: String(Math.max(10, PER_WORKER + 6)),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const output: string[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = once(child, 'exit').then(([code]) => code as number | null);
    workers.push({ name: `worker-${index}`, child, probe, spansFile, output, exited });
  }
  await Promise.all(
    workers.map((worker) =>
      ready(worker.probe, worker.name, { child: worker.child, output: worker.output, exited: worker.exited }, 180_000),
    ),
  );

  /** Each worker's spans so far: SIGUSR2 makes it write them. */
  async function workerSpans(): Promise<SpanTotals[]> {
    const mtime = (file: string) => {
      try {
        return statSync(file).mtimeMs;
      } catch {
        return 0;
      }
    };
    return Promise.all(
      workers.map(async (worker) => {
        const before = mtime(worker.spansFile);
        const asked = Date.now();
        worker.child.kill('SIGUSR2');
        while (mtime(worker.spansFile) === before) {
          if (Date.now() - asked > 10_000) throw new Error(`${worker.name} wrote no spans`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return (JSON.parse(readFileSync(worker.spansFile, 'utf8')) as { totals: SpanTotals }).totals;
      }),
    );
  }
  const minus = (after: SpanTotals, before: SpanTotals | undefined): SpanTotals =>
    Object.fromEntries(
      Object.entries(after).map(([label, { ms, calls }]) => [
        label,
        { ms: ms - (before?.[label]?.ms ?? 0), calls: calls - (before?.[label]?.calls ?? 0) },
      ]),
    );

  // --- The cycle: one tick, as a worker's clock enqueues it every minute, and every run it enqueues.
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: 'pgboss',
    max: 2,
    schedule: false,
    supervise: false,
  });
  boss.on('error', () => undefined);
  await boss.start();
  cleanups.push(() => boss.stop({ graceful: false }).catch(() => undefined));
  // A worker answers its probes before its queues exist: the tick waits for them.
  await until(
    async () =>
      (await one<{ n: number }>(`select count(*)::int as n from pgboss.queue where name = $1`, [RULE_TICK_JOB])).n
        ? true
        : undefined,
    'the workers to create their queues',
    60_000,
  );
  // Meta's answer times, from the slot on: the setup ran without them.
  if (LATENCY) await ask({ type: 'faults', config: { latency: { ...LATENCY, seed: 'rules-cycle' } } });
  await ask({ type: 'reset' });
  const mutationsBefore = (await ask({ type: 'stats' })).mutations;
  const spansBefore = await workerSpans();
  const cpuBefore = workers.map((worker) => cpuSeconds(worker.child.pid));
  const sandboxCpuBefore = cpuSeconds(sandboxChild.pid);
  const tickedAt = Date.now();
  // The slot's runs only: were the cycle to outlast the slot, the next slot's runs are not counted in it.
  const slot = `m15:${Math.floor(tickedAt / SLOT_MS)}`;
  await boss.send(RULE_TICK_JOB, {});
  const rssPeak = new Map<string, number>();
  const sampleRss = () => {
    for (const [name, pid] of [
      ...workers.map((worker) => [worker.name, worker.child.pid] as const),
      ['sandbox', sandboxChild.pid] as const,
    ]) {
      const mb = rssMb(pid);
      if (mb !== undefined) rssPeak.set(name, Math.max(rssPeak.get(name) ?? 0, mb));
    }
  };
  const deadline = tickedAt + 20 * 60_000;
  let done: { finished: number; failed: number; first: number | null; last: number | null };
  for (;;) {
    sampleRss();
    done = await one(
      `select count(*) filter (where status in ('completed', 'failed'))::int as finished,
            count(*) filter (where status = 'failed')::int as failed,
            (extract(epoch from min(created_at)) * 1000)::float8 as first,
            (extract(epoch from max(finished_at)) * 1000)::float8 as last
       from rule_runs where slot = $1`,
      [slot],
    );
    if (done.finished >= rules) break;
    if (Date.now() > deadline) {
      // What the slot did before it was given up: the figures of a slot too long for its 15 minutes.
      const partial = await ask({ type: 'stats' });
      console.log(
        `rules-cycle: NOT finished: ${done.finished} of ${rules} runs finished in 20 minutes (${done.failed} failed; ` +
          `Meta latency ${LATENCY ? `p50 ${LATENCY.p50Ms} ms, p99 ${LATENCY.p99Ms} ms` : 'none'}); ` +
          `${partial.total} Graph requests (${Object.entries(partial.byKind)
            .map(([kind, n]) => `${kind} ${n}`)
            .join(', ')}); refreshes ${partial.byKind.account ?? 0}; ` +
          `${partial.mutations - mutationsBefore} writes applied; CPU of the workers ` +
          `${workers.map((worker, index) => (cpuSeconds(worker.child.pid) - cpuBefore[index]!).toFixed(1)).join(' + ')} s, ` +
          `of the sandbox ${(cpuSeconds(sandboxChild.pid) - sandboxCpuBefore).toFixed(1)} s; load average ` +
          loadavg()
            .map((n) => n.toFixed(1))
            .join(' '),
      );
      throw new Error(`${done.finished} of ${rules} runs finished in 20 minutes`);
    }
    for (const worker of workers)
      if (worker.child.exitCode !== null) throw new Error(`${worker.name} exited: ${worker.output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // From the tick (or a worker's own tick, if its clock came first) to the last run's end.
  const from = Math.min(tickedAt, done.first ?? tickedAt);
  const seconds = ((done.last ?? Date.now()) - from) / 1000;
  const cpu = workers.map((worker, index) => cpuSeconds(worker.child.pid) - cpuBefore[index]!);
  const sandboxCpu = cpuSeconds(sandboxChild.pid) - sandboxCpuBefore;
  const spansAfter = await workerSpans();
  const stats = await ask({ type: 'stats' });
  const { left } = await one<{ left: number }>(
    `select count(*)::int as left from pgboss.job
      where name = $1 and state in ('created', 'retry', 'active') and data->>'slot' = $2`,
    [RULE_RUN_JOB, slot],
  );
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

  // --- The figures.
  const refreshes = stats.byKind.account ?? 0;
  const concurrency = PER_WORKER * WORKERS;
  const perProcess = (label: string, values: number[]) =>
    `${label} ${values.map((value) => value.toFixed(1)).join(' + ')} s`;
  console.log(
    `rules-cycle: ${rules} rules over ${ACCOUNTS} accounts × ${ADS} ads (${HISTORY_DAYS ?? 60} days of history) ` +
      `in ${seconds.toFixed(1)} s ` +
      `(Meta latency ${LATENCY ? `p50 ${LATENCY.p50Ms} ms, p99 ${LATENCY.p99Ms} ms` : 'none'}) ` +
      `(${(seconds / ACCOUNTS).toFixed(2)} s an account; ${WORKERS} worker processes, ${PER_WORKER} runs at once each, ` +
      `sandbox in its own process, Postgres); ${perProcess('CPU of the workers', cpu)}, of the sandbox ` +
      `${sandboxCpu.toFixed(1)} s; ${stats.total} Graph requests, ${(stats.total / ACCOUNTS).toFixed(1)} an account ` +
      `(${Object.entries(stats.byKind)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ')}; ${stats.batchItems} batch items); refreshes ${refreshes} for ${ACCOUNTS} accounts; ` +
      `${stats.mutations - mutationsBefore} writes applied; ${done.failed} runs failed, ${left} run jobs left; ` +
      `peak RSS ${[...rssPeak].map(([name, mb]) => `${name} ${mb.toFixed(0)} MB`).join(', ')}; load average ${load}`,
  );
  const delta = spansAfter.map((after, index) => minus(after, spansBefore[index]));
  console.log(
    `rules-cycle time in (summed over the ${WORKERS} workers' ${concurrency} concurrent runs): ` +
      spanReport(sumSpans(delta), seconds * concurrency),
  );

  // --- The workers stop as a deployment stops them.
  for (const worker of workers) worker.child.kill('SIGTERM');
  const codes = await Promise.all(workers.map((worker) => worker.exited));
  if (codes.some((code) => code !== 0)) console.error(`worker exit codes after SIGTERM: ${codes.join(', ')}`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(error));
}
