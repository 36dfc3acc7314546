import { workspaceJob } from '../apps/server/src/lib/scope.ts';
// Graph API calls per account for one full sync of a seeded 500-ad account, and the time to sync 10 of them.
import { loadavg } from 'node:os';

import type { SyncResult } from '../apps/server/src/modules/ad-accounts/ad-account-sync.service.ts';
import { BENCH_ACCOUNTS as ACCOUNTS, startBenchApp } from './sandbox-app.ts';

const CONCURRENCY = 2; // what one worker process runs at once

const { running, ctx, workspaceId, connected, close } = await startBenchApp();
const scope = workspaceJob(workspaceId);

/** A sync that did not sync (skipped, failed) would make the figures those of less work: the bench stops instead. */
function synced(result: SyncResult, accountId: string): SyncResult {
  if (result.status !== 'synced') throw new Error(`sync of ${accountId}: ${result.status}`);
  return result;
}

// One full (first) sync of one account, counted by the sandbox.
const [first, ...rest] = connected;
if (!first) throw new Error('nothing connected');
running.sandbox.stats.reset();
const started = performance.now();
const result = synced(await ctx.modules.adAccounts.sync.sync(scope, first, { final: true }), first);
const oneMs = performance.now() - started;
const fullCalls = running.sandbox.stats.snapshot().total;
const byKind = running.sandbox.stats.snapshot().byKind;

// The other nine, CONCURRENCY at a time as a worker runs them; every account's first sync, each a full backfill.
running.sandbox.stats.reset();
const queue = [...rest];
const allStarted = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      synced(await ctx.modules.adAccounts.sync.sync(scope, next, { final: true }), next);
  }),
);
const tenSeconds = (oneMs + performance.now() - allStarted) / 1000;
const restStats = running.sandbox.stats.snapshot();
const restAccounts = Object.keys(restStats.byAccount).length;
if (restAccounts !== rest.length) throw new Error(`${rest.length} accounts synced, ${restAccounts} read from Meta`);
const tenCalls = fullCalls + restStats.total;

// An incremental sync (the last REFRESH_DAYS days + today, ADR 0012) of the first account.
running.sandbox.stats.reset();
synced(await ctx.modules.adAccounts.sync.sync(scope, first, { final: true }), first);
const incrementalCalls = running.sandbox.stats.snapshot().total;

const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
console.log(
  `meta-sync: full sync of a 500-ad account = ${fullCalls} Graph calls (${Object.entries(byKind)
    .map(([k, v]) => `${k} ${v}`)
    .join(
      ', ',
    )}; ${result.entities} entities, ${result.insightRows} insight rows, ${(oneMs / 1000).toFixed(2)} s); incremental sync = ${incrementalCalls} calls; ${ACCOUNTS} such accounts synced in ${tenSeconds.toFixed(1)} s, ${tenCalls} Graph calls (concurrency ${CONCURRENCY}, PGlite); RSS ${rss} MB; load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')}`,
);
await close();
