// One full evaluation cycle of 100 rules over 10 accounts × 500 ads on the embedded default: wall time and the
// Graph calls the sandbox counts (refreshes per account, reads and writes, batched).
import { HeldScheduler } from '../apps/server/src/test/rules-sandbox.ts';
import { syncInLine } from '../apps/server/src/test/test-app.ts';
import { BENCH_ACCOUNTS as ACCOUNTS, startBenchApp } from './sandbox-app.ts';

const RULES = 100;
const CONCURRENCY = 2; // what one worker process runs at once

const clock = { now: new Date() };
const { running, ctx, app, auth, connected, close } = await startBenchApp({
  now: () => clock.now,
  // Each rule run's refresh is a sync, run in line as the worker would run it.
  scheduler: syncInLine,
  rules: { scheduler: new HeldScheduler() },
});

// Ten rules per account, the templates' kinds with thresholds that fire on part of the account.
const kinds = [
  { level: 'ad', metric: 'cpa', operator: 'gt', value: 400, action: { type: 'pause' } },
  { level: 'ad', metric: 'ctr', operator: 'lt', value: 0.8, action: { type: 'pause' } },
  { level: 'ad', metric: 'frequency', operator: 'gt', value: 3, action: { type: 'notify' } },
  {
    level: 'adset',
    metric: 'roas',
    operator: 'gt',
    value: 3,
    action: { type: 'increase_budget', by: 15, unit: 'percent', ceiling: 100_000 },
  },
  {
    level: 'adset',
    metric: 'cpc',
    operator: 'gt',
    value: 30,
    action: { type: 'decrease_budget', by: 10, unit: 'percent', floor: 10 },
  },
] as const;
for (let i = 0; i < RULES; i++) {
  const account = connected[i % connected.length];
  const kind = kinds[i % kinds.length];
  if (!account || !kind) throw new Error('setup');
  const created = await app.inject({
    method: 'POST',
    url: '/api/rules',
    headers: auth,
    payload: {
      name: `Bench rule ${i + 1}`,
      isActive: true,
      scope: { adAccountIds: [account], level: kind.level, statuses: ['ACTIVE'] },
      conditions: {
        match: 'all',
        items: [{ metric: kind.metric, operator: kind.operator, value: kind.value, window: 'last_7d' }],
      },
      actions: [kind.action],
      schedule: { everyMinutes: 15 },
      safeguards: { cooldownHours: 24, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
    },
  });
  if (created.statusCode !== 201) throw new Error(created.body);
}

// The next slot, with every mirror older than the rules' 15 minutes: each account needs one refresh.
clock.now = new Date(clock.now.getTime() + 16 * 60_000);
running.sandbox.stats.reset();
const mutationsBefore = running.sandbox.mutations.length;
const started = performance.now();
const due = await ctx.modules.rules.tick.due(clock.now);
const queue = [...due];
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await ctx.modules.rules.runner.run(next);
  }),
);
const seconds = (performance.now() - started) / 1000;

const stats = running.sandbox.stats.snapshot();
// Every refresh (a sync) reads the account once: account reads are refreshes.
const refreshes = stats.byKind.account ?? 0;
const writes = running.sandbox.mutations.length - mutationsBefore;
const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
console.log(
  `rules-cycle: ${due.length} rules over ${ACCOUNTS} accounts × 500 ads in ${seconds.toFixed(1)} s (concurrency ${CONCURRENCY}, PGlite); ` +
    `${stats.total} Graph requests (${Object.entries(stats.byKind)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ')}; ${stats.batchItems} batch items); refreshes ${refreshes} for ${ACCOUNTS} accounts; ` +
    `${writes} writes applied; RSS ${rss} MB`,
);
await close();
