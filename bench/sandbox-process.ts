// The Meta sandbox of a benchmark in a process of its own (started by bench/rules-cycle-processes.ts through IPC):
// the world of `BENCH_SANDBOX_ACCOUNTS` accounts × 500 ads, with 60 days of history, is most of a bench's memory,
// and the processes under measurement call it over HTTP as they would call Meta. It answers its parent's messages:
// `stats` (the calls it counted and the writes it applied), `reset` (the counts back to zero) and `faults` (e.g. Meta's
// latency, switched on once the setup is done).
import { startSandboxServer, type FaultConfig } from '@adpilot/meta-sandbox';
import { seedOf } from './bench-seed.ts';

export type SandboxRequest = { type: 'stats' } | { type: 'reset' } | { type: 'faults'; config: FaultConfig };
export type SandboxAnswer =
  | { type: 'ready'; url: string; appId: string; appSecret: string }
  | {
      type: 'stats';
      total: number;
      byKind: Record<string, number>;
      batchItems: number;
      mutations: number;
      rssMb: number;
    }
  | { type: 'reset' }
  | { type: 'faults' };

if (!process.send) throw new Error('bench/sandbox-process.ts runs as a child with an IPC channel');
const send = (answer: SandboxAnswer) => process.send?.(answer);

const running = await startSandboxServer({
  seed: seedOf(
    Number(process.env.BENCH_SANDBOX_ACCOUNTS ?? 10),
    Number(process.env.BENCH_SANDBOX_ADS ?? 500),
    process.env.BENCH_SANDBOX_HISTORY_DAYS ? Number(process.env.BENCH_SANDBOX_HISTORY_DAYS) : undefined,
  ),
  // An agency's app has standard access, and its app-level budget is not what is measured.
  accessTier: 'standard_access',
  appCallsPerHour: 10_000_000,
});
process.on('message', (request: SandboxRequest) => {
  if (request.type === 'faults') {
    running.sandbox.faults.set(request.config);
    send({ type: 'faults' });
    return;
  }
  if (request.type === 'reset') {
    running.sandbox.stats.reset();
    send({ type: 'reset' });
    return;
  }
  const stats = running.sandbox.stats.snapshot();
  send({
    type: 'stats',
    total: stats.total,
    byKind: { ...stats.byKind },
    batchItems: stats.batchItems,
    mutations: running.sandbox.mutations.length,
    rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
  });
});
// The parent's end is this process's end.
process.on('disconnect', () => void running.close().finally(() => process.exit(0)));
send({ type: 'ready', url: running.url, appId: running.sandbox.appId, appSecret: running.sandbox.appSecret });
