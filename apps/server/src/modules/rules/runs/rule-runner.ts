import { workspaceJob } from '../../../lib/scope.ts';
import type { EntityDecision } from '@adpilot/contracts';
import type { AdAccountRow, AutomationRuleRow, RuleActionRow, RuleRunRow } from '@adpilot/db';
import { MetaApiError, MetaTokenExpiredError } from '@adpilot/meta';
import type { ActivityRepository } from '../../activity/index.ts';
import type { AccountRefresher } from './account-refresher.ts';
import { proposalActivity, runActivity } from './rule-activity.ts';
import type { RuleActionObserver, RuleExecutor } from './rule-executor.ts';
import type { AdMirrorService } from '../../ad-accounts/index.ts';
import type { RuleLedgerRepository } from '../ledger/rule-ledger.repository.ts';
import { toLedgerPlan } from '../ledger/rule-plan.ts';
import type { RuleRunRequest, RuleRunScheduler } from './rule-run-scheduler.ts';
import { freshnessMs, slotTimezone } from './rule-slots.ts';
import { toRuleBody } from '../definitions/rule-definition.ts';
import type { RulesRepository } from '../definitions/rules.repository.ts';
import type { TenantTx, Transactions } from '@adpilot/db';

/** What the engine decides for a rule over some accounts at a moment (preview, run and backtest share it). */
export interface RuleEvaluator {
  evaluate(
    tx: TenantTx,
    rule: AutomationRuleRow,
    accounts: AdAccountRow[],
    now: Date,
  ): Promise<{ evaluated: number; matched: number; decisions: EntityDecision[] }>;
}

export interface RunnerDeps {
  transactions: Transactions;
  rulesRepository: RulesRepository;
  ledger: RuleLedgerRepository;
  inputs: AdMirrorService;
  activity: ActivityRepository;
  refresher: AccountRefresher;
  executor: RuleExecutor;
  evaluator: RuleEvaluator;
  scheduler: RuleRunScheduler;
  now: () => Date;
  observer?: RuleActionObserver;
}

export type RunOutcome =
  | { status: 'skipped'; reason: 'rule_missing' | 'rule_inactive' | 'run_finished' }
  | { status: 'failed' }
  | { status: 'completed' | 'waiting'; runId: string; retryAt?: Date };

/**
 * Runs a rule for a slot: refresh the stale accounts in scope, let the engine decide, commit the plan to the ledger
 * (once per run), then write it through the executor. Any number of jobs of one slot may run this, in any order
 * and after any crash: the ledger lets each change through at most once, and what is left waits for a later job.
 */
export class RuleRunner {
  constructor(private readonly deps: RunnerDeps) {}

  /** Runs the request; a failure is retried by the queue, and recorded on the run at the last attempt. */
  async run(request: RuleRunRequest, attempt: { final: boolean } = { final: true }): Promise<RunOutcome> {
    try {
      return await this.attempt(request);
    } catch (error) {
      if (!attempt.final) throw error;
      await this.fail(request, error);
      return { status: 'failed' };
    }
  }

  private async fail(request: RuleRunRequest, error: unknown): Promise<void> {
    const { transactions, rulesRepository, ledger, activity, now } = this.deps;
    const code =
      error instanceof MetaTokenExpiredError
        ? 'reauth_required'
        : error instanceof MetaApiError
          ? 'refresh_failed'
          : 'internal_error';
    await transactions.tenant(workspaceJob(request.workspaceId), async (tx) => {
      const rule = await rulesRepository.find(tx, request.ruleId);
      const run = rule ? await ledger.ensureRun(tx, rule.id, request.slot, request.trigger) : undefined;
      const finished = run ? await ledger.finishRun(tx, run.id, 'failed', now(), { code }) : undefined;
      if (rule && finished) {
        const counts = await ledger.runCounts(tx, finished.id);
        await activity.insert(tx, runActivity(rule, finished, counts, { code }));
      }
    });
  }

  private async attempt(request: RuleRunRequest): Promise<RunOutcome> {
    const { transactions, rulesRepository, ledger, now } = this.deps;
    const scope = workspaceJob(request.workspaceId);
    const rule = await transactions.tenant(scope, (tx) => rulesRepository.find(tx, request.ruleId));
    if (!rule) return { status: 'skipped', reason: 'rule_missing' };
    if (request.trigger === 'schedule' && !rule.isActive) return { status: 'skipped', reason: 'rule_inactive' };

    let run = await transactions.tenant(scope, async (tx) => {
      const found = await ledger.ensureRun(tx, rule.id, request.slot, request.trigger);
      if (found.status === 'queued') await ledger.markRunStarted(tx, found.id, now());
      return found;
    });
    if (run.status === 'completed' || run.status === 'failed') return { status: 'skipped', reason: 'run_finished' };

    const accounts = await this.accountsOf(rule, run);
    // Only accounts we can read are planned for; every account is executed, so rows planned before an account lost
    // its Meta access are settled (failed with reauth_required) instead of waiting for an attempt that never comes.
    if (!run.plannedAt)
      run = await this.plan(
        rule,
        run,
        accounts.filter((account) => !account.needsReauth),
      );

    let retryAt: Date | undefined;
    for (const account of accounts) {
      const outcome = await this.deps.executor.executeAccount(run, rule, account);
      if (outcome.retryAt && (!retryAt || outcome.retryAt < retryAt)) retryAt = outcome.retryAt;
    }
    return this.conclude(rule, run, retryAt);
  }

  private async accountsOf(rule: AutomationRuleRow, run: RuleRunRow): Promise<AdAccountRow[]> {
    const { scope } = toRuleBody(rule);
    const zone = slotTimezone(run.slot);
    const accounts = await this.deps.transactions.tenant(workspaceJob(rule.workspaceId), (tx) =>
      this.deps.inputs.accounts(tx, scope.adAccountIds),
    );
    return accounts.filter((account) => !zone || account.timezone === zone);
  }

  /**
   * Decides and records the plan. In approve mode a change becomes a proposal (none for a target and action the
   * rule still waits on), in notify mode an entry the notifier sends; either way nothing of it is written (ADR 0073).
   */
  private async plan(rule: AutomationRuleRow, run: RuleRunRow, accounts: AdAccountRow[]): Promise<RuleRunRow> {
    const { transactions, ledger, evaluator, refresher, activity, now } = this.deps;
    const { schedule, mode, approvalHours } = toRuleBody(rule);
    const maxAge = freshnessMs(schedule);
    const fresh: AdAccountRow[] = [];
    for (const account of accounts) fresh.push(await refresher.ensureFresh(account, maxAge));
    const at = now();
    let recorded: RuleActionRow[] = [];
    const planned = await transactions.tenant(workspaceJob(rule.workspaceId), async (tx) => {
      const evaluation = await evaluator.evaluate(tx, rule, fresh, at);
      const plan = toLedgerPlan(evaluation, fresh);
      if (mode === 'approve') {
        const waiting = await ledger.pendingProposalKeys(tx, rule.id, at);
        plan.actions = plan.actions.filter((action) => !waiting.has(`${action.targetExternalId}|${action.actionType}`));
      }
      const expiresAt = new Date(at.getTime() + approvalHours * 3_600_000);
      const inserted = await ledger.commitPlan(tx, run, plan, at, { mode, expiresAt });
      for (const row of inserted || []) {
        if (row.state === 'proposed') await activity.insert(tx, proposalActivity(rule, row, 'rule_action_proposed'));
        if (row.state === 'notified') await activity.insert(tx, proposalActivity(rule, row, 'rule_action_notified'));
      }
      recorded = inserted || [];
      return (await ledger.findRun(tx, run.id)) ?? run;
    });
    for (const state of ['planned', 'proposed', 'notified'] as const)
      this.deps.observer?.recorded(state, recorded.filter((row) => row.state === state).length);
    return planned;
  }

  /** Ends the run when nothing is left to write; otherwise asks for a later attempt when the first row frees up. */
  private async conclude(rule: AutomationRuleRow, run: RuleRunRow, retryAt: Date | undefined): Promise<RunOutcome> {
    const { transactions, ledger, activity, scheduler, now } = this.deps;
    const pending = await transactions.tenant(workspaceJob(rule.workspaceId), (tx) => ledger.pendingOf(tx, run.id));
    if (pending.length > 0) {
      const at = now();
      const next = pending
        .map((row) => row.leaseUntil ?? at)
        .reduce((earliest, moment) => (moment < earliest ? moment : earliest), retryAt ?? pending[0]?.leaseUntil ?? at);
      // A row leased by another job is retried after its lease: if that job died, this attempt finishes its work.
      await scheduler.enqueueRun(
        { workspaceId: rule.workspaceId, ruleId: rule.id, slot: run.slot, trigger: run.trigger },
        { startAfter: new Date(Math.max(next.getTime(), at.getTime()) + 1000) },
      );
      return { status: 'waiting', runId: run.id, retryAt: next };
    }
    await transactions.tenant(workspaceJob(rule.workspaceId), async (tx) => {
      const finished = await ledger.finishRun(tx, run.id, 'completed', now());
      if (!finished) return;
      const counts = await ledger.runCounts(tx, run.id);
      await activity.insert(tx, runActivity(rule, finished, counts));
    });
    return { status: 'completed', runId: run.id };
  }
}
