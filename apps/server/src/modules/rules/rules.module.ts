import type { Transactions } from '@adpilot/db';
import type { MetaClient } from '@adpilot/meta';
import { defineRuleJobs, type RuleJobOptions } from '../../jobs/rules.jobs.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import type { ActivityRepository } from '../activity/activity.repository.ts';
import type { AdAccountSyncService } from '../ad-accounts/ad-account-sync.service.ts';
import type { AdMirrorService } from '../ad-accounts/ad-mirror.service.ts';
import { AccountRefresher } from './account-refresher.ts';
import { MirrorEvaluator } from './rule-evaluator.ts';
import { RuleExecutor, type ExecutorDeps, type RuleWriteDeps } from './rule-executor.ts';
import { RuleLedgerRepository } from './rule-ledger.repository.ts';
import { RulePreviewService } from './rule-preview.service.ts';
import { RuleRunner, type RuleRunRequest, type RuleRunScheduler } from './rule-runner.ts';
import { dueRuns } from './rule-tick.ts';
import { RuleRunsService } from './rule-runs.service.ts';
import { RulesRepository } from './rules.repository.ts';
import { RulesService, UNLIMITED_ACTIVE_RULES, type ActiveRuleQuota } from './rules.service.ts';

/** Knobs tests and the crash test's worker turn; production uses the defaults. */
export interface RulesOptions {
  quota?: ActiveRuleQuota;
  /** Takes the place of the queue (tests run rules in line). */
  scheduler?: RuleRunScheduler;
  jobs?: RuleJobOptions;
  /** Lease on a ledger row being written (default two minutes). */
  leaseMs?: number;
  afterWrite?: ExecutorDeps['afterWrite'];
}

export interface RulesModule {
  rules: RulesService;
  /** The scheduler's question: which rule slots are due now (the tick job asks it every minute). */
  ruleTick: { due(now: Date): Promise<RuleRunRequest[]> };
  ruleRuns: RuleRunsService;
  rulePreview: RulePreviewService;
  ruleRunner: RuleRunner;
}

/** Builds the rules feature: repositories, the engine on the mirror, the executor, the jobs and the services. */
export function createRulesModule(
  deps: {
    transactions: Transactions;
    queue: JobQueue;
    /** The client of the Meta app configured now. */
    metaClient: () => MetaClient;
    secretBox: SecretBox;
    activity: ActivityRepository;
    sync: AdAccountSyncService;
    /** The ad-accounts module's mirror: the snapshot rules judge, and the note of a change made at Meta. */
    mirror: AdMirrorService;
    now: () => Date;
  },
  options: RulesOptions = {},
): RulesModule {
  const { now, secretBox, activity } = deps;
  const db = deps.transactions;
  const rules = new RulesRepository();
  const ledger = new RuleLedgerRepository();
  const inputs = deps.mirror;
  const evaluator = new MirrorEvaluator(inputs, ledger);
  const refresher = new AccountRefresher({ db, inputs, sync: deps.sync, now });
  const writing: RuleWriteDeps = {
    db,
    rules,
    ledger,
    inputs,
    activity,
    metaClient: deps.metaClient,
    secretBox,
    now,
  };
  const executor = new RuleExecutor({
    ...writing,
    leaseMs: options.leaseMs ?? 2 * 60_000,
    rateLimitFallbackMs: 5 * 60_000,
    ...(options.afterWrite ? { afterWrite: options.afterWrite } : {}),
  });

  // The run job calls the runner, and the runner enqueues later attempts through the job: built in two steps.
  const built: { runner?: RuleRunner } = {};
  const runnerOf = () => {
    if (!built.runner) throw new Error('rule runner used before it was built');
    return built.runner;
  };
  const quota = options.quota ?? UNLIMITED_ACTIVE_RULES;
  const tick = {
    db,
    rules,
    ledger,
    inputs,
    ...(quota.fastestCheckMinutesOf ? { fastestCheckMinutesOf: quota.fastestCheckMinutesOf.bind(quota) } : {}),
  };
  const queued = defineRuleJobs(deps.queue, { runner: runnerOf, tick, now }, options.jobs);
  const scheduler = options.scheduler ?? queued;
  const runner = new RuleRunner({
    db,
    rules,
    ledger,
    inputs,
    activity,
    refresher,
    executor,
    evaluator,
    scheduler,
    now,
  });
  built.runner = runner;

  return {
    ruleTick: { due: (now) => dueRuns(tick, now) },
    rules: new RulesService({ db, rules, inputs, quota, now }),
    ruleRuns: new RuleRunsService({ ...writing, scheduler }),
    rulePreview: new RulePreviewService({ db, rules, inputs, evaluator, refresher, now }),
    ruleRunner: runner,
  };
}
