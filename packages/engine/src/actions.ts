import { isBudgetAction, type ActionPlan, type RuleAction, type RuleEntityRef } from '@adpilot/contracts';
import { planBudget } from './budget.ts';
import { planBoost } from './boost.ts';
import type { EngineSnapshot } from './snapshot.ts';
import type { SafeguardLedger } from './safeguards.ts';
import { MS_PER_HOUR, isoInstant } from './time.ts';
import type { EngineEntity } from './types.ts';

/** Statuses a rule may change; archived and deleted entities are left alone. */
const EDITABLE = new Set(['ACTIVE', 'PAUSED']);

export function entityRef(entity: EngineEntity): RuleEntityRef {
  return { adAccountId: entity.adAccountId, level: entity.level, externalId: entity.externalId, name: entity.name };
}

/** What one evaluation has planned so far: a budget is moved once per run, whichever matching entity asked first. */
export interface RunState {
  ruleId: string;
  ledger: SafeguardLedger;
  /** Budget holder entity index → the external id of the entity whose match moved it. */
  movedBudgets: Map<number, string>;
  /** The rule's safeguard: hours to leave alone an entity changed outside AdPilot (0: off). */
  respectManualChangesHours: number;
}

/** A change made outside AdPilot less than the safeguard's hours ago keeps every rule off the target, or null. */
function externalChangeSkip(target: EngineEntity, hours: number, now: number): NonNullable<ActionPlan['skip']> | null {
  const at = target.externalChangeAt;
  if (!(hours > 0) || at === null || at === undefined) return null;
  const until = at + hours * MS_PER_HOUR;
  if (now < at || now >= until) return null;
  return {
    code: 'external_change',
    params: { hours, at: isoInstant(at), until: isoInstant(until), by: target.externalChangeBy ?? null },
  };
}

/** Plans every action of the rule for one matched entity, in the rule's order. */
export function planActions(
  actions: readonly RuleAction[],
  snapshot: EngineSnapshot,
  entityIndex: number,
  run: RunState,
): ActionPlan[] {
  return actions.map((action, actionIndex) => planAction(action, actionIndex, snapshot, entityIndex, run));
}

function planAction(
  action: RuleAction,
  actionIndex: number,
  snapshot: EngineSnapshot,
  entityIndex: number,
  run: RunState,
): ActionPlan {
  const entity = snapshot.entities[entityIndex]!;
  const clock = snapshot.clocks[snapshot.clockOf[entityIndex]!]!;
  const budget = isBudgetAction(action);
  const holderIndex = budget ? snapshot.holderOf[entityIndex]! : entityIndex;
  const targetIndex = holderIndex >= 0 ? holderIndex : entityIndex;
  const target = snapshot.entities[targetIndex]!;
  const plan: ActionPlan = {
    actionIndex,
    type: action.type,
    target: entityRef(target),
    holderReason: budget ? snapshot.holderReason[entityIndex]! : null,
    outcome: 'skipped',
    change: null,
    skip: null,
    message: action.type === 'notify' ? (action.message ?? null) : null,
  };
  const skipWith = (skip: NonNullable<ActionPlan['skip']>) => ({ ...plan, skip });

  if (budget && holderIndex < 0) return skipWith({ code: 'no_budget_holder', params: {} });
  if (action.type === 'boost_budget' && target.dailyBudgetMinor === null && target.lifetimeBudgetMinor === null) {
    // A budget schedule raises the entity's own budget: under campaign budget the ad set has none (ADR 0191).
    const holder = snapshot.holderOf[entityIndex]!;
    const holderLevel = holder >= 0 && holder !== entityIndex ? snapshot.entities[holder]!.level : 'adset';
    return skipWith({ code: 'boost_no_own_budget', params: { level: target.level, holderLevel } });
  }
  if (action.type !== 'notify' && !EDITABLE.has(target.status)) {
    return skipWith({ code: 'not_editable', params: { status: target.status } });
  }
  const external =
    action.type === 'notify' ? null : externalChangeSkip(target, run.respectManualChangesHours, clock.now);
  if (external) return skipWith(external);
  if (action.type === 'pause' && target.status === 'PAUSED') {
    return skipWith({ code: 'already_paused', params: { status: target.status } });
  }
  if (action.type === 'resume' && target.status === 'ACTIVE') {
    return skipWith({ code: 'already_active', params: { status: target.status } });
  }
  const movedBy = budget ? run.movedBudgets.get(targetIndex) : undefined;
  if (movedBy !== undefined) {
    return skipWith({
      code: 'budget_holder_planned',
      params: { holderLevel: target.level, holderId: target.externalId, byEntityId: movedBy },
    });
  }
  const blocked = run.ledger.check(targetIndex, action.type, clock.now);
  if (blocked) return skipWith(blocked);

  if (action.type === 'pause' || action.type === 'resume') {
    plan.change = { field: 'status', from: target.status, to: action.type === 'pause' ? 'PAUSED' : 'ACTIVE' };
  } else if (isBudgetAction(action)) {
    const field = target.dailyBudgetMinor !== null ? 'daily_budget' : 'lifetime_budget';
    const currentMinor = target.dailyBudgetMinor ?? target.lifetimeBudgetMinor;
    if (currentMinor === null) {
      return skipWith({ code: 'no_budget', params: { holderLevel: target.level, holderId: target.externalId } });
    }
    const outcome = planBudget({
      action,
      field,
      currentMinor,
      offset: clock.offset,
      minimumMinor: clock.account.minDailyBudgetMinor,
    });
    if (outcome.skip) return skipWith(outcome.skip);
    plan.change = outcome.change;
    run.movedBudgets.set(targetIndex, entity.externalId);
  } else if (action.type === 'boost_budget') {
    const daily = target.dailyBudgetMinor !== null;
    plan.change = planBoost({
      action,
      budgetField: daily ? 'daily_budget' : 'lifetime_budget',
      currentMinor: (daily ? target.dailyBudgetMinor : target.lifetimeBudgetMinor)!,
      offset: clock.offset,
      timeZone: clock.account.timezone,
      now: clock.now,
    });
  }
  run.ledger.record(run.ruleId, targetIndex, action.type, clock.now);
  plan.outcome = 'planned';
  return plan;
}
