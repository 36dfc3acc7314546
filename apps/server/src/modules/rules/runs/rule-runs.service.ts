import { RULE_MESSAGES, type RuleActionRecord, type RuleRun } from '@adpilot/contracts';
import type { RuleActionRow, TenantScope, TenantTx } from '@adpilot/db';
import type { EntityStatus, MetaClient } from '@adpilot/meta';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../lib/app-error.ts';
import { actionActivity, handActivity } from './rule-activity.ts';
import { ruleChangeIn } from '../definitions/rules.service.ts';
import type { AdMirrorService } from '../../ad-accounts/index.ts';
import type { RuleWriteDeps } from './rule-executor.ts';
import { before, target } from './rule-decision.ts';
import { classify, liveValue, mirrorChange, type FieldWrite, type LiveField, type WriteOutcome } from './rule-meta.ts';
import { isRuleMade } from '../ledger/rule-made.ts';
import type { RuleRunScheduler } from './rule-run-scheduler.ts';
import { presentAction, presentRun } from '../definitions/rules.presenter.ts';

export interface RuleRunsServiceDeps extends RuleWriteDeps {
  scheduler: RuleRunScheduler;
}

export const RUNS_LISTED = 50;
const REVERT_LEASE_MS = 60_000;

export const REVERT_MESSAGES = {
  notFound: 'Action not found',
  valueChanged: 'The value was changed since this rule set it; nothing was reverted',
  alreadyReverted: 'This action was already reverted (or a revert of it is under way)',
  notRevertible: 'Only a status or budget change can be reverted',
  notApplied: 'This action was not applied, so there is nothing to revert',
} as const;

/** A revert is one write: the typed single-object calls, which carry the ad account for its throttle. */
async function writeOne(meta: MetaClient, token: string, actId: string, write: FieldWrite): Promise<WriteOutcome> {
  const options = { accountId: actId };
  try {
    if (write.field === 'status') await meta.updateStatus(token, write.id, write.value as EntityStatus, options);
    else
      await meta.updateBudget(
        token,
        write.id,
        write.field === 'daily_budget' ? { dailyBudget: Number(write.value) } : { lifetimeBudget: Number(write.value) },
        options,
      );
    return { ok: true };
  } catch (error) {
    return classify(error);
  }
}

const refusal = (code: AppError['code'], message: string) => new AppError(code, message, 409);

function refusedByMeta(answer: Exclude<WriteOutcome, { ok: true }>): AppError {
  if (answer.kind === 'rate_limited')
    return AppError.tooManyRequests(
      'Meta asks to wait before this change; try the revert again later',
      (answer.retryAfterMs ?? 60_000) / 1000,
    );
  if (answer.kind === 'reauth') return new AppError('META_REAUTH_REQUIRED', 'Reconnect this ad account', 409);
  return new AppError('META_ERROR', `Facebook refused the revert: ${answer.error.message}`, 502);
}

/** Run now, the runs of a rule with their actions, and the revert of one action. */
export class RuleRunsService {
  constructor(private readonly deps: RuleRunsServiceDeps) {}

  /** Starts a run of the rule now (its own slot), whatever its schedule or switch; answers the run's id. */
  async runNow(scope: TenantScope, ruleId: string): Promise<{ runId: string }> {
    const run = await this.deps.transactions.tenant(scope, async (tx) => {
      const rule = await this.deps.rulesRepository.find(tx, ruleId);
      if (!rule) throw AppError.notFound(RULE_MESSAGES.notFound);
      await ruleChangeIn(this.deps.activity, tx, 'rule_run_requested', rule);
      return this.deps.ledger.ensureRun(tx, ruleId, `manual:${randomUUID()}`, 'manual');
    });
    await this.deps.scheduler.enqueueRun({ workspaceId: scope.workspaceId, ruleId, slot: run.slot, trigger: 'manual' });
    return { runId: run.id };
  }

  async listRuns(scope: TenantScope, ruleId: string): Promise<RuleRun[]> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      if (!(await this.deps.rulesRepository.find(tx, ruleId))) throw AppError.notFound(RULE_MESSAGES.notFound);
      return (await this.deps.ledger.listRuns(tx, ruleId, RUNS_LISTED)).map(presentRun);
    });
  }

  /**
   * Sets the value from before the action back, only if the entity still has the value the rule set: a change
   * someone made since is never overwritten (409 with the reason).
   */
  async revert(scope: TenantScope, actionId: string): Promise<RuleActionRecord> {
    const { transactions, ledger, inputs, now } = this.deps;
    const at = now();
    const { row, account } = await transactions.tenant(scope, async (tx) => {
      const found = await ledger.findAction(tx, actionId);
      if (!found) throw AppError.notFound(REVERT_MESSAGES.notFound);
      if (found.state === 'reverted') throw refusal('REVERT_ALREADY_REVERTED', REVERT_MESSAGES.alreadyReverted);
      if (found.state !== 'applied') throw refusal('REVERT_NOT_APPLIED', REVERT_MESSAGES.notApplied);
      if (found.field === null) throw refusal('REVERT_NOT_REVERTIBLE', REVERT_MESSAGES.notRevertible);
      const claimed = await ledger.claimRevert(tx, actionId, at, new Date(at.getTime() + REVERT_LEASE_MS));
      if (!claimed) throw refusal('REVERT_ALREADY_REVERTED', REVERT_MESSAGES.alreadyReverted);
      return { row: claimed, account: await inputs.account(tx, claimed.adAccountId) };
    });
    try {
      if (!account) throw AppError.notFound(REVERT_MESSAGES.notFound);
      return await this.writeBack(scope, row, account);
    } finally {
      await transactions.tenant(scope, (tx) => ledger.releaseLease(tx, actionId));
    }
  }

  /**
   * A boost's revert (ADR 0191): its budget schedule is deleted on Meta, if Meta still lists it over its window (a
   * schedule someone removed is not there to delete: 409 value changed), and the entry says it was removed.
   */
  private async removeBoost(
    scope: TenantScope,
    row: RuleActionRow,
    account: NonNullable<Awaited<ReturnType<AdMirrorService['account']>>>,
  ): Promise<RuleActionRecord> {
    const meta = this.deps.metaClient();
    const token = this.deps.secretBox.decrypt(account.accessTokenEnc);
    const options = { accountId: account.facebookAccountId };
    const schedule = row.budgetSchedule;
    if (!schedule?.scheduleId) throw refusal('REVERT_NOT_REVERTIBLE', REVERT_MESSAGES.notRevertible);
    const window = { from: new Date(schedule.timeStart), to: new Date(schedule.timeEnd) };
    let present: boolean;
    try {
      const listed = await meta.listBudgetSchedules(token, row.targetExternalId, window, options);
      present = listed.some((item) => item.id === schedule.scheduleId);
      if (present) await meta.deleteBudgetSchedule(token, schedule.scheduleId, options);
    } catch (error) {
      throw refusedByMeta(classify(error));
    }
    if (!present) {
      throw new AppError('REVERT_VALUE_CHANGED', REVERT_MESSAGES.valueChanged, 409, [
        { field: 'value', message: `budget schedule ${schedule.scheduleId} is no longer on Meta` },
      ]);
    }
    return this.recordRevert(scope, row, account);
  }

  /**
   * A revert written at Meta, recorded: the ledger row marked, what else the change undoes (`alsoIn`, in the same
   * unit of work), and the entry, the rule's or the hand change's, signed by the person who asked (`scope`).
   */
  private recordRevert(
    scope: TenantScope,
    row: RuleActionRow,
    account: NonNullable<Awaited<ReturnType<AdMirrorService['account']>>>,
    alsoIn?: (tx: TenantTx, at: Date) => Promise<void>,
  ): Promise<RuleActionRecord> {
    const { transactions, ledger, activity, now } = this.deps;
    const at = now();
    return transactions.tenant(scope, async (tx) => {
      await ledger.markReverted(tx, row.id, at);
      await alsoIn?.(tx, at);
      const rule = isRuleMade(row) ? await this.deps.rulesRepository.find(tx, row.ruleId) : undefined;
      if (rule) await activity.insert(tx, actionActivity(rule, account, row, 'reverted'));
      else if (!isRuleMade(row)) await activity.insert(tx, handActivity(account, row, 'reverted'));
      const reverted = await ledger.findAction(tx, row.id);
      return presentAction(reverted ?? row);
    });
  }

  /** The write and its record; the record is signed by the person who asked (`scope`). */
  private async writeBack(
    scope: TenantScope,
    row: RuleActionRow,
    account: NonNullable<Awaited<ReturnType<AdMirrorService['account']>>>,
  ): Promise<RuleActionRecord> {
    if (row.field === 'budget_schedule') return this.removeBoost(scope, row, account);
    const { ledger, inputs } = this.deps;
    const meta = this.deps.metaClient();
    const field = row.field as LiveField;
    const token = this.deps.secretBox.decrypt(account.accessTokenEnc);
    const actId = account.facebookAccountId;
    const set = target(row);
    const previous = before(row);
    const live = (await meta.readLiveValues(token, actId, [{ id: row.targetExternalId, field }])).get(
      row.targetExternalId,
    );
    const current = live ? liveValue(live, field) : null;
    if (current !== set || previous === null) {
      throw new AppError('REVERT_VALUE_CHANGED', REVERT_MESSAGES.valueChanged, 409, [
        { field: 'value', message: `expected ${String(set)}, found ${String(current)}` },
      ]);
    }
    const answer = await writeOne(meta, token, actId, { id: row.targetExternalId, field, value: previous });
    if (!answer.ok) throw refusedByMeta(answer);
    return this.recordRevert(scope, row, account, async (tx, at) => {
      // A reverted pause has nothing left for its timed hold to resume.
      if (row.actionType === 'pause') await ledger.cancelHold(tx, row.id, at);
      await inputs.recordWrite(tx, row.adAccountId, row.targetExternalId, mirrorChange(field, previous));
    });
  }
}
