// Where a rule cycle's time goes: the runner's steps and what they call, timed by wrapping their classes' methods
// (so every instance the app builds is timed). Time is summed over concurrent runs; a step inside another is counted
// in both, so the report lists parents before children.
import { AdAccountSyncService } from '../apps/server/src/modules/ad-accounts/ad-account-sync.service.ts';
import { AdAccountsRepository } from '../apps/server/src/modules/ad-accounts/ad-accounts.repository.ts';
import { AdMirrorService } from '../apps/server/src/modules/ad-accounts/ad-mirror.service.ts';
import { AccountRefresher } from '../apps/server/src/modules/rules/runs/account-refresher.ts';
import { MirrorEvaluator } from '../apps/server/src/modules/rules/runs/rule-evaluator.ts';
import { RuleExecutor } from '../apps/server/src/modules/rules/runs/rule-executor.ts';
import { RuleLedgerRepository } from '../apps/server/src/modules/rules/ledger/rule-ledger.repository.ts';
import { RuleRunner } from '../apps/server/src/modules/rules/runs/rule-runner.ts';

type Method = (...args: unknown[]) => unknown;
const totals = new Map<string, { ms: number; calls: number }>();

function time(target: object, method: string, label: string): void {
  // Private methods are wrapped too: the classes' prototypes are read as plain records.
  const proto = target as Record<string, Method>;
  const original = proto[method];
  if (typeof original !== 'function') throw new Error(`no method ${method} to time`);
  totals.set(label, { ms: 0, calls: 0 });
  proto[method] = function timed(this: unknown, ...args: unknown[]) {
    const started = performance.now();
    const done = () => {
      const total = totals.get(label);
      if (total) {
        total.ms += performance.now() - started;
        total.calls += 1;
      }
    };
    const result = original.apply(this, args);
    // Drizzle's queries are thenables, not promises: awaiting one runs it.
    if (result && typeof (result as PromiseLike<unknown>).then === 'function')
      return Promise.resolve(result as PromiseLike<unknown>).finally(done);
    done();
    return result;
  };
}

time(RuleRunner.prototype, 'attempt', 'run (whole)');
time(AccountRefresher.prototype, 'ensureFresh', '  refresh (own sync, or waiting for another run’s)');
time(AdAccountSyncService.prototype, 'sync', '    sync');
time(AdAccountSyncService.prototype, 'pull', '      Graph reads');
time(AdAccountsRepository.prototype, 'replaceEntities', '      mirror writes: entities');
time(AdAccountsRepository.prototype, 'upsertInsights', '      mirror writes: insights');
time(MirrorEvaluator.prototype, 'evaluate', '  evaluation (reads and engine)');
time(AdMirrorService.prototype, 'entities', '    reads: entities');
time(AdMirrorService.prototype, 'insights', '    reads: insights');
time(RuleLedgerRepository.prototype, 'recentActions', '    reads: recent actions');
time(RuleLedgerRepository.prototype, 'opposingActions', '    reads: opposing actions');
time(RuleLedgerRepository.prototype, 'commitPlan', '  ledger: plan committed');
time(RuleExecutor.prototype, 'executeAccount', '  writes to Meta and their settlement');
time(RuleRunner.prototype, 'conclude', '  run concluded');

export type SpanTotals = Record<string, { ms: number; calls: number }>;

/** Each step's seconds, calls and share of `capacity` (wall seconds × concurrent runs). */
export function spanReport(totals: SpanTotals, capacity: number): string {
  return Object.entries(totals)
    .map(([label, { ms, calls }]) => {
      const share = (ms / 1000 / capacity) * 100;
      return `\n  ${label}: ${(ms / 1000).toFixed(1)} s in ${calls} calls (${share.toFixed(0)} %)`;
    })
    .join('');
}

export const spans = {
  reset(): void {
    for (const total of totals.values()) Object.assign(total, { ms: 0, calls: 0 });
  },
  /** The totals so far, in the report's order. */
  snapshot(): SpanTotals {
    return Object.fromEntries([...totals].map(([label, total]) => [label, { ...total }]));
  },
  report(capacity: number): string {
    return spanReport(this.snapshot(), capacity);
  },
};

/** The sum of several processes' totals (labels in the first one's order). */
export function sumSpans(all: SpanTotals[]): SpanTotals {
  const sum: SpanTotals = {};
  for (const one of all)
    for (const [label, { ms, calls }] of Object.entries(one)) {
      const total = (sum[label] ??= { ms: 0, calls: 0 });
      total.ms += ms;
      total.calls += calls;
    }
  return sum;
}
