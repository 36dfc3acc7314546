import { z } from 'zod';
import type { RuleRunner } from './runs/rule-runner.ts';
import type { RuleRunRequest, RuleRunScheduler } from './runs/rule-run-scheduler.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { registeredJob } from '../../jobs/job-registry.ts';
import type { HoldRequest } from './runs/rule-holds.ts';

export const RULE_RUN_JOB = 'rule-run';
export const RULE_TICK_JOB = 'rule-tick';
/** One timed hold's resume, once due (ADR 0074). */
export const RULE_HOLD_JOB = 'rule-hold';
export const PROPOSAL_EXPIRY_JOB = 'rule-proposal-expiry';
const RULE_RETRY_LIMIT = 3;
/** How soon a free run slot of a worker looks for the next run (pg-boss's shortest interval). */
export const RULE_RUN_POLLING_SECONDS = 0.5;

const runPayload = z.object({
  workspaceId: z.uuid(),
  ruleId: z.uuid(),
  slot: z.string().min(1).max(200),
  trigger: z.enum(['schedule', 'manual']),
});

export interface RuleJobOptions {
  /** Seconds a run may stay active before pg-boss gives it to another worker (a crashed worker's job). */
  expireInSeconds?: number;
  retryDelaySeconds?: number;
  /** Rule runs one process runs at once (2 by default; `RULE_RUN_CONCURRENCY`). */
  runConcurrency?: number;
}

/** The singleton key of a run: one queued and one running job per rule and slot at most. */
export const runKey = (request: Pick<RuleRunRequest, 'ruleId' | 'slot'>) => `${request.ruleId}:${request.slot}`;

/** How a run is asked for: one `rule-run` job per rule and slot (the singleton key keeps it to one queued). */
export function queuedRuleRuns(queue: JobQueue): RuleRunScheduler {
  return {
    enqueueRun: (request, sendOptions = {}) =>
      queue.send(RULE_RUN_JOB, request, {
        singletonKey: runKey(request),
        ...(sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {}),
      }),
  };
}

/**
 * Declares the rule jobs: one rule's run for one slot, the minute tick that enqueues the slots due, and the expiry
 * of proposals.
 */
export function defineRuleJobs(
  queue: JobQueue,
  deps: {
    runner: RuleRunner;
    /** The scheduler's question: which rule slots are due now. */
    tick: { due(now: Date): Promise<RuleRunRequest[]> };
    /** The timed holds: which resumes are due now, and the writing of one. */
    holds: { due(now: Date): Promise<HoldRequest[]>; run(request: HoldRequest): Promise<void> };
    /** Closes the proposals nobody decided in time; resumes the approved ones a crash left unwritten. */
    expiry: { expireDue(now: Date): Promise<number>; resumeStranded(now: Date): Promise<number> };
    now: () => Date;
  },
  options: RuleJobOptions = {},
): void {
  const scheduler = queuedRuleRuns(queue);
  queue.define({
    ...registeredJob(RULE_RUN_JOB),
    payload: runPayload,
    retryLimit: RULE_RETRY_LIMIT,
    retryDelaySeconds: options.retryDelaySeconds ?? 30,
    expireInSeconds: options.expireInSeconds ?? 10 * 60,
    // Runs wait on Meta most of their time (its answers take 0.2 to 1 s): where Meta is slow, more runs at once
    // keep a worker's CPU busy (docs/performance.md, "Rule cycle at agency scale").
    concurrency: options.runConcurrency ?? 2,
    // A slot enqueues every due rule at once, and most runs are short (their account already refreshed by another
    // run): a slot that waited out pg-boss's 2 s after each short run took a slot of 1,000 rules a quarter of an
    // hour on two workers, waiting, not working. Runs are taken two at a time and, while the backlog fills the
    // batches, the next two at once; the tail of the slot polls every 0.5 s.
    batchSize: 2,
    pollingIntervalSeconds: RULE_RUN_POLLING_SECONDS,
    handler: async (data, job) => {
      await deps.runner.run(data, { final: job.retryCount >= RULE_RETRY_LIMIT });
    },
  });

  queue.define({
    ...registeredJob(RULE_HOLD_JOB),
    payload: z.object({ workspaceId: z.uuid(), id: z.uuid() }),
    retryLimit: RULE_RETRY_LIMIT,
    retryDelaySeconds: options.retryDelaySeconds ?? 30,
    expireInSeconds: options.expireInSeconds ?? 10 * 60,
    handler: async (data) => {
      await deps.holds.run(data);
    },
  });

  queue.define({
    ...registeredJob(RULE_TICK_JOB),
    payload: z.object({}).loose(),
    retryLimit: 0,
    handler: async () => {
      const now = deps.now();
      for (const request of await deps.tick.due(now)) await scheduler.enqueueRun(request);
      // The ledger row is the once: a duplicated job finds it taken or settled.
      for (const hold of await deps.holds.due(now))
        await queue.send(RULE_HOLD_JOB, hold, { singletonKey: `hold:${hold.id}` });
    },
  });

  // Lists and decisions expire proposals as they read them; this closes (and logs) the rest within five minutes,
  // and hands an approval a crash left unwritten back to its run.
  queue.define({
    ...registeredJob(PROPOSAL_EXPIRY_JOB),
    payload: z.object({}).loose(),
    retryLimit: 0,
    handler: async () => {
      await deps.expiry.expireDue(deps.now());
      await deps.expiry.resumeStranded(deps.now());
    },
  });
}
