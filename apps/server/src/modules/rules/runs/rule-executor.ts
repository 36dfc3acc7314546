import { workspaceJob } from '../../../lib/scope.ts';
import type { AdAccountRow, AutomationRuleRow, RuleActionRow, RuleRunRow, TenantScope } from '@adpilot/db';
import type { MetaClient } from '@adpilot/meta';
import type { SecretBox } from '../../../lib/crypto.ts';
import type { ActivityRepository } from '../../activity/index.ts';
import { actionActivity, handActivity } from './rule-activity.ts';
import {
  decide,
  holdResumeAt,
  holdSettlement,
  screen,
  settlementOf,
  startsHold,
  target,
  type PlannedWrite,
  type Settlement,
} from './rule-decision.ts';
import { nextWindowStart } from './rule-windows.ts';
import { toRuleBody } from '../definitions/rule-definition.ts';
import type { AdMirrorService } from '../../ad-accounts/index.ts';
import type { RuleLedgerRepository } from '../ledger/rule-ledger.repository.ts';
import type { RulesRepository } from '../definitions/rules.repository.ts';
import type { Transactions } from '@adpilot/db';
import { classify, mirrorChange, outcomeOf, type LiveField } from './rule-meta.ts';
import { isRuleMade } from '../ledger/rule-made.ts';

/** Where a ledger row ended up: planned, asked for (proposed, notified), settled by the executor, or refused. */
export type RuleActionOutcome = Settlement['state'] | 'planned' | 'proposed' | 'notified' | 'rejected' | 'expired';

/** Told of ledger rows once their unit of work has committed (the server's metrics count them). */
export interface RuleActionObserver {
  recorded(outcome: RuleActionOutcome, count?: number): void;
}

/** What writing a change to Meta and recording it takes: the executor's runs and a revert both need it. */
export interface RuleWriteDeps {
  transactions: Transactions;
  rulesRepository: RulesRepository;
  ledger: RuleLedgerRepository;
  inputs: AdMirrorService;
  activity: ActivityRepository;
  /** The client of the Meta app configured now; its live reads and writes carry the ad account (its throttle). */
  metaClient: () => MetaClient;
  secretBox: SecretBox;
  now: () => Date;
  /** Told of each row's outcome once its unit of work has committed. */
  observer?: RuleActionObserver;
}

export interface ExecutorDeps extends RuleWriteDeps {
  /** How long a claimed row is ours to write; a crashed worker's rows are taken again after it. */
  leaseMs: number;
  /** How long a rate-limited write waits when Meta did not say. */
  rateLimitFallbackMs: number;
  /**
   * Called between Meta's answer and the ledger's record of it: the window a crash leaves a change written but
   * not recorded. The crash test kills its worker here.
   */
  afterWrite?: () => Promise<void> | void;
}

export interface AccountOutcome {
  applied: number;
  failed: number;
  postponed: number;
  /** The earliest moment a postponed row may be tried again. */
  retryAt?: Date;
}

/**
 * Writes the ledger rows of one run and account to Meta, at most once each: rows are claimed under a lease, the
 * live value is read just before writing, a row whose entity already has the target value (a write that landed
 * before a crash) is marked applied without writing again, and a rate limit postpones the row, never drops it.
 */
export class RuleExecutor {
  constructor(private readonly deps: ExecutorDeps) {}

  async executeAccount(run: RuleRunRow, rule: AutomationRuleRow, account: AdAccountRow): Promise<AccountOutcome> {
    const { transactions, ledger, now, leaseMs } = this.deps;
    const started = now();
    const rows = await transactions.tenant(workspaceJob(run.workspaceId), (tx) =>
      ledger.claimPending(tx, run.id, account.id, started, new Date(started.getTime() + leaseMs)),
    );
    return this.executeRows(rule, account, rows);
  }

  /**
   * Writes one row now, the way a run writes its rows: an approved proposal (a rule's, or one by hand: `rule` null).
   * Answers its state afterwards, or undefined when someone else holds it.
   */
  async executeRow(
    rule: AutomationRuleRow | null,
    account: AdAccountRow,
    rowId: string,
    scope: TenantScope = workspaceJob(account.workspaceId),
  ): Promise<RuleActionRow['state'] | undefined> {
    const { transactions, ledger, now, leaseMs } = this.deps;
    const started = now();
    const row = await transactions.tenant(workspaceJob(account.workspaceId), (tx) =>
      ledger.claimRow(tx, rowId, started, new Date(started.getTime() + leaseMs)),
    );
    if (!row) return undefined;
    const outcome = await this.executeRows(rule, account, [row], scope);
    return outcome.applied > 0 ? 'applied' : outcome.postponed > 0 ? 'postponed' : 'failed';
  }

  /**
   * Writes changes by hand (ADR 0160) of one account now, as a run writes its rows: each claimed under a lease,
   * the live value read again, written in one batch, settled with its entry signed by `scope`'s member. Nothing
   * retries a change by hand later, so one Meta asked to wait is settled as failed (`meta_rate_limited`).
   */
  async executeByHand(scope: TenantScope, account: AdAccountRow, rowIds: readonly string[]): Promise<void> {
    const { transactions, ledger, now, leaseMs } = this.deps;
    const started = now();
    const rows = await transactions.tenant(scope, async (tx) => {
      const claimed: RuleActionRow[] = [];
      for (const id of rowIds) {
        const row = await ledger.claimRow(tx, id, started, new Date(started.getTime() + leaseMs));
        if (row) claimed.push(row);
      }
      return claimed;
    });
    await this.executeRows(null, account, rows, scope);
  }

  private async executeRows(
    rule: AutomationRuleRow | null,
    account: AdAccountRow,
    rows: RuleActionRow[],
    scope?: TenantScope,
  ): Promise<AccountOutcome> {
    const outcome: AccountOutcome = { applied: 0, failed: 0, postponed: 0 };
    if (rows.length === 0) return outcome;

    const settlements = await this.readDecideWrite(account, rows);
    for (const row of rows) {
      const settlement = settlements.get(row.id) ?? {
        state: 'failed' as const,
        error: { code: 'meta_error', params: { message: 'No answer for this change' } },
      };
      await this.settle(rule, account, row, settlement, scope);
      if (settlement.state !== 'skipped') outcome[settlement.state] += 1;
      if (settlement.state === 'postponed' && (!outcome.retryAt || settlement.retryAt < outcome.retryAt))
        outcome.retryAt = settlement.retryAt;
    }
    return outcome;
  }

  /**
   * Writes a timed hold's resume once it is due (or at once: "resume now"), through the same claim, live read and
   * batch write as a run's rows: skipped (and logged) when the status is no longer the one the pause set. Answers
   * the row as settled, or undefined when it is not there to take (not due, taken, or already settled). The record
   * is signed by `scope`'s user (a person's "resume now"), else by the workspace's job.
   */
  async executeHold(
    scope: TenantScope,
    id: string,
    options: { now: boolean } = { now: false },
  ): Promise<RuleActionRow | undefined> {
    const { transactions, ledger, rulesRepository, inputs, now, leaseMs } = this.deps;
    const started = now();
    const claimed = await transactions.tenant(scope, async (tx) => {
      const row = await ledger.claimHold(tx, id, started, new Date(started.getTime() + leaseMs), options);
      if (!row || !isRuleMade(row)) return undefined;
      const [rule, account] = await Promise.all([
        rulesRepository.find(tx, row.ruleId),
        inputs.account(tx, row.adAccountId),
      ]);
      return rule && account ? { row, rule, account } : undefined;
    });
    if (!claimed) return undefined;
    const { row, rule, account } = claimed;
    const decided = (await this.readDecideWrite(account, [row])).get(row.id) ?? {
      state: 'failed' as const,
      error: { code: 'meta_error', params: { message: 'No answer for this change' } },
    };
    await this.settle(rule, account, row, holdSettlement(row, decided), scope);
    return transactions.tenant(scope, (tx) => ledger.findAction(tx, row.id));
  }

  /** Screens the rows, reads the live values, writes what is still to write, and settles each row (rule-decision.ts). */
  private async readDecideWrite(account: AdAccountRow, rows: RuleActionRow[]): Promise<Map<string, Settlement>> {
    const screened = screen(account, rows);
    const { settlements } = screened;
    const boosts = screened.sendable.filter((row) => row.field === 'budget_schedule');
    const sendable = screened.sendable.filter((row) => row.field !== 'budget_schedule');
    if (boosts.length === 0 && sendable.length === 0) return settlements;

    const meta = this.deps.metaClient();
    const token = this.deps.secretBox.decrypt(account.accessTokenEnc);
    const actId = account.facebookAccountId;
    for (const row of boosts) settlements.set(row.id, await this.boost(meta, token, actId, row));
    if (sendable.length === 0) return settlements;
    let writes: PlannedWrite[] = [];
    try {
      const live = await meta.readLiveValues(
        token,
        actId,
        sendable.map((row) => ({ id: row.targetExternalId, field: row.field as LiveField })),
      );
      const decided = decide(sendable, live);
      for (const [id, settlement] of decided.settlements) settlements.set(id, settlement);
      writes = decided.writes;
      const answers = await meta.writeFields(
        token,
        actId,
        writes.map((item) => item.write),
      );
      writes.forEach((item, index) => {
        const answer = answers[index];
        settlements.set(item.row.id, this.settlement(answer ? outcomeOf(answer) : undefined));
      });
      await this.deps.afterWrite?.();
    } catch (error) {
      // The read or the whole batch failed: nothing is known of the writes, so they wait for a later attempt,
      // which reads the live value again before deciding.
      const failure = classify(error);
      const pending =
        writes.length > 0 ? writes.map((item) => item.row) : sendable.filter((row) => !settlements.has(row.id));
      for (const row of pending) settlements.set(row.id, this.settlement(failure));
    }
    return settlements;
  }

  /**
   * A boost (ADR 0191): Meta's budget schedules of the entity over the window are read first; one that is already
   * the planned schedule (a create that landed before a crash) is taken as applied, else the schedule is created.
   * Meta's refusal (an entity without a budget of its own, or an account that may not schedule) fails the row with
   * `budget_schedule_refused`.
   */
  private async boost(meta: MetaClient, token: string, actId: string, row: RuleActionRow): Promise<Settlement> {
    const planned = row.budgetSchedule;
    if (!planned) return { state: 'failed', error: { code: 'entity_missing' } };
    const schedule = {
      budgetValue: planned.budgetValue,
      budgetValueType: planned.budgetValueType,
      timeStart: new Date(planned.timeStart),
      timeEnd: new Date(planned.timeEnd),
    };
    const options = { accountId: actId };
    try {
      const live = await meta.listBudgetSchedules(
        token,
        row.targetExternalId,
        { from: schedule.timeStart, to: schedule.timeEnd },
        options,
      );
      const landed = live.find(
        (item) =>
          item.timeStart.getTime() === schedule.timeStart.getTime() &&
          item.timeEnd.getTime() === schedule.timeEnd.getTime() &&
          item.budgetValueType === schedule.budgetValueType &&
          item.budgetValue === schedule.budgetValue,
      );
      if (landed) return { state: 'applied', wrote: false, scheduleId: landed.id };
      const scheduleId = await meta.createBudgetSchedule(token, row.targetExternalId, schedule, options);
      await this.deps.afterWrite?.();
      return { state: 'applied', wrote: true, scheduleId };
    } catch (error) {
      const failure = classify(error);
      if (failure.kind === 'error' && !failure.error.isTransient && failure.error.code === 100)
        return {
          state: 'failed',
          error: { code: 'budget_schedule_refused', params: { message: failure.error.message } },
        };
      return this.settlement(failure);
    }
  }

  private settlement(answer: Parameters<typeof settlementOf>[0]): Settlement {
    return settlementOf(answer, this.deps.now(), this.deps.rateLimitFallbackMs);
  }

  /**
   * The outcome, its activity entry and the rule's `lastTriggered` commit together. A change by hand (`rule` null)
   * has no rule to touch and no hold, and nobody to retry it: Meta's "wait" fails it.
   */
  private async settle(
    rule: AutomationRuleRow | null,
    account: AdAccountRow,
    row: RuleActionRow,
    decided: Settlement,
    scope: TenantScope = workspaceJob(row.workspaceId),
  ): Promise<void> {
    const at = this.deps.now();
    const { ledger, rulesRepository, activity } = this.deps;
    const settlement: Settlement =
      rule === null && decided.state === 'postponed' ? { state: 'failed', error: decided.error } : decided;
    const scheduleId = settlement.state === 'applied' ? settlement.scheduleId : undefined;
    const recorded =
      scheduleId && row.budgetSchedule ? { ...row, budgetSchedule: { ...row.budgetSchedule, scheduleId } } : row;
    await this.deps.transactions.tenant(scope, async (tx) => {
      if (settlement.state === 'applied') {
        await ledger.settle(tx, row.id, { state: 'applied', at });
        if (scheduleId) await ledger.recordSchedule(tx, row, scheduleId);
        if (rule) await rulesRepository.touchTriggered(tx, rule.id, at);
        const resumeAt = rule && startsHold(row, settlement) ? holdEnd(rule, at, account.timezone) : undefined;
        if (resumeAt) await ledger.planHold(tx, row, resumeAt);
        const value = target(row);
        // A boost leaves the budget as it is: Meta raises it only during the window.
        if (row.field !== null && row.field !== 'budget_schedule' && value !== null)
          await this.deps.inputs.recordWrite(
            tx,
            row.adAccountId,
            row.targetExternalId,
            mirrorChange(row.field as LiveField, value),
          );
      } else if (settlement.state === 'failed' || settlement.state === 'skipped') {
        await ledger.settle(tx, row.id, { state: settlement.state, at, error: settlement.error });
      } else {
        await ledger.settle(tx, row.id, {
          state: 'postponed',
          at,
          error: settlement.error,
          retryAt: settlement.retryAt,
        });
      }
      const error = settlement.state === 'applied' ? undefined : settlement.error;
      await activity.insert(
        tx,
        rule
          ? actionActivity(rule, account, recorded, settlement.state, error)
          : handActivity(account, recorded, settlement.state, error),
      );
    });
    this.deps.observer?.recorded(settlement.state);
  }
}

/**
 * When the hold a rule's pause starts ends, if it has one: its `resumeAfter`, or for a dayparting rule the next
 * window's start in the account's time zone (ADR 0127).
 */
function holdEnd(rule: AutomationRuleRow, pausedAt: Date, timeZone: string): Date | undefined {
  const body = toRuleBody(rule);
  if ('windows' in body.schedule) return nextWindowStart(body.schedule.windows, timeZone, pausedAt);
  const pause = body.actions.find((action) => action.type === 'pause');
  return pause?.type === 'pause' && pause.resumeAfter ? holdResumeAt(pause.resumeAfter, pausedAt, timeZone) : undefined;
}
