// Graph API calls per account for one full sync of a seeded 500-ad account, and the time to sync 10 of them.
import { BENCH_ACCOUNTS as ACCOUNTS, startBenchApp } from './sandbox-app.ts';

const CONCURRENCY = 2; // what one worker process runs at once

const { running, ctx, userId, connected, close } = await startBenchApp();

// One full (first) sync of one account, counted by the sandbox.
const [first, ...rest] = connected;
if (!first) throw new Error('nothing connected');
running.sandbox.stats.reset();
const started = performance.now();
const result = await ctx.adAccountSync.sync(userId, first, { final: true });
const oneMs = performance.now() - started;
const fullCalls = running.sandbox.stats.snapshot().total;
const byKind = running.sandbox.stats.snapshot().byKind;

// The other nine, CONCURRENCY at a time as a worker runs them.
const queue = [...rest];
const allStarted = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      await ctx.adAccountSync.sync(userId, next, { final: true });
  }),
);
const tenSeconds = (oneMs + performance.now() - allStarted) / 1000;

// An incremental sync (last 3 days + today) of the first account.
running.sandbox.stats.reset();
await ctx.adAccountSync.sync(userId, first, { final: true });
const incrementalCalls = running.sandbox.stats.snapshot().total;

const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
console.log(
  `meta-sync: full sync of a 500-ad account = ${fullCalls} Graph calls (${Object.entries(byKind)
    .map(([k, v]) => `${k} ${v}`)
    .join(
      ', ',
    )}; ${result.entities} entities, ${result.insightRows} insight rows, ${(oneMs / 1000).toFixed(2)} s); incremental sync = ${incrementalCalls} calls; ${ACCOUNTS} such accounts synced in ${tenSeconds.toFixed(1)} s (concurrency ${CONCURRENCY}, PGlite); RSS ${rss} MB`,
);
await close();
