import type { RuleRunRow } from '@adpilot/db';

/** One job's work: a rule, a slot, and why it runs. */
export interface RuleRunRequest {
  workspaceId: string;
  ruleId: string;
  slot: string;
  trigger: RuleRunRow['trigger'];
}

/**
 * Asks for a later attempt of the same run (pg-boss: a job deferred to `startAfter`). The port the runner and the
 * services call; `rules.jobs.ts` `queuedRuleRuns` implements it on the job queue.
 */
export interface RuleRunScheduler {
  enqueueRun(request: RuleRunRequest, options?: { startAfter?: Date }): Promise<string | null>;
}
