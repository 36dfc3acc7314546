// The rule-cycle bench in one process (RULES_CYCLE_MODE=in-process, and always on PGlite): the app, the sandbox and
// the simulated workers' runs share this process and its event loop, on a movable clock. Under
// `node --cpu-prof --import tsx` it is the variant to profile.
import { loadavg } from 'node:os';
import { HeldScheduler } from '../apps/server/src/test/rules-sandbox.ts';
import { workspaceJob } from '../apps/server/src/lib/scope.ts';
import { startBenchApp } from './sandbox-app.ts';
import { spans } from './rules-cycle-spans.ts';
import { ACCOUNTS, createRules, engine, firstSyncs, PER_WORKER, WORKERS } from './rules-cycle-setup.ts';

// The workers are simulated in this one process: their jobs share one event loop (and one pool of connections), so
// CPU-bound server work is not spread over cores as separate processes would spread it.
const CONCURRENCY = PER_WORKER * WORKERS;

const clock = { now: new Date() };
// Connecting syncs every account; the setup runs those first syncs itself, several at once, and then each rule run's
// refresh is a sync run in line, as the worker would run it.
const setup = { done: false };
const { running, ctx, app, auth, connected, workspaceId, database, close } = await startBenchApp({
  now: () => clock.now,
  accounts: ACCOUNTS,
  // An agency's app has standard access, and its app-level budget is not what is measured here: at the default 5,000
  // calls an hour, 100 accounts' first syncs and one cycle pass the client's threshold and it pauses every call.
  quotas: { accessTier: 'standard_access', appCallsPerHour: 10_000_000 },
  scheduler: (context) => ({
    enqueueSync: async (workspace, adAccountId) => {
      if (!setup.done) return true;
      const built = context();
      if (!built) throw new Error('a sync was asked for before the app was built');
      await built.modules.adAccounts.sync.sync(workspaceJob(workspace), adAccountId, { final: true });
      return true;
    },
  }),
  rules: { scheduler: new HeldScheduler() },
});
await firstSyncs(ctx, workspaceId, connected);
setup.done = true;

await createRules(app, auth, connected, { transactions: database, workspaceId });

// The next slot, with every mirror older than the rules' 15 minutes: each account needs one refresh.
clock.now = new Date(clock.now.getTime() + 16 * 60_000);
running.sandbox.stats.reset();
const mutationsBefore = running.sandbox.mutations.length;
spans.reset();
const cpuBefore = process.cpuUsage();
const started = performance.now();
const cycleFrom = process.hrtime.bigint() / 1000n;
const due = await ctx.modules.rules.tick.due(clock.now);
const queue = [...due];
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await ctx.modules.rules.runner.run(next);
  }),
);
const seconds = (performance.now() - started) / 1000;
const cycleTo = process.hrtime.bigint() / 1000n;
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;

const stats = running.sandbox.stats.snapshot();
// Every refresh (a sync) reads the account once: account reads are refreshes.
const refreshes = stats.byKind.account ?? 0;
const writes = running.sandbox.mutations.length - mutationsBefore;
const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
const workers =
  WORKERS === 1
    ? `concurrency ${CONCURRENCY}`
    : `${WORKERS} workers simulated in one process: concurrency ${CONCURRENCY} on one event loop`;
console.log(
  `rules-cycle: ${due.length} rules over ${ACCOUNTS} accounts × 500 ads in ${seconds.toFixed(1)} s ` +
    `(${(seconds / ACCOUNTS).toFixed(2)} s an account; ${workers}, ${engine}); CPU of the process ` +
    `${cpuSeconds.toFixed(1)} s; ${stats.total} Graph requests, ${(stats.total / ACCOUNTS).toFixed(1)} an account ` +
    `(${Object.entries(stats.byKind)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ')}; ${stats.batchItems} batch items); refreshes ${refreshes} for ${ACCOUNTS} accounts; ` +
    `${writes} writes applied; RSS ${rss} MB; load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
);
console.log(
  `rules-cycle time in (summed over the ${CONCURRENCY} concurrent runs): ${spans.report(seconds * CONCURRENCY)}`,
);
// With --cpu-prof, the cycle's stretch of the profile (V8's clock, in µs): bench/profile-window.mjs sums it by package.
if (process.execArgv.some((arg) => arg.startsWith('--cpu-prof'))) console.log(`cycle µs ${cycleFrom}–${cycleTo}`);
await close();
