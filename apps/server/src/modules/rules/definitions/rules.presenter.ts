import {
  toMajorUnits,
  type Explanation,
  type LedgerActor,
  type PlannedChange,
  type Rule,
  type RuleActionRecord,
  type RuleRun,
  type RunSkip,
  type RuleWarning,
} from '@adpilot/contracts';
import type { AutomationRuleRow, RuleActionRow, RuleRunRow } from '@adpilot/db';
import type { LedgerPlan } from '../ledger/rule-plan.ts';
import { toRuleBody } from './rule-definition.ts';

export function presentRule(row: AutomationRuleRow, warnings: RuleWarning[]): Rule {
  const { scope, conditions, actions, schedule, safeguards, mode, approvalHours } = toRuleBody(row);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isActive: row.isActive,
    scope,
    conditions,
    actions,
    schedule,
    safeguards,
    mode,
    approvalHours,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastTriggered: row.lastTriggered?.toISOString() ?? null,
    warnings,
  };
}

function presentChange(row: RuleActionRow): PlannedChange | null {
  if (row.field === 'status')
    return { field: 'status', from: row.beforeStatus ?? '', to: row.afterStatus === 'ACTIVE' ? 'ACTIVE' : 'PAUSED' };
  const fromMinor = row.beforeMinor ?? 0;
  const toMinor = row.afterMinor ?? 0;
  const schedule = row.budgetSchedule;
  if (row.field === 'budget_schedule' && schedule)
    return {
      field: 'budget_schedule',
      budgetField: schedule.budgetField,
      from: toMajorUnits(fromMinor, row.currency),
      to: toMajorUnits(toMinor, row.currency),
      fromMinor,
      toMinor,
      budgetValue: schedule.budgetValue,
      budgetValueType: schedule.budgetValueType,
      timeStart: schedule.timeStart,
      timeEnd: schedule.timeEnd,
      scheduleId: schedule.scheduleId,
    };
  if (row.field !== 'daily_budget' && row.field !== 'lifetime_budget') return null;
  return {
    field: row.field,
    from: toMajorUnits(fromMinor, row.currency),
    to: toMajorUnits(toMinor, row.currency),
    fromMinor,
    toMinor,
  };
}

const STATUS = {
  planned: 'pending',
  applied: 'applied',
  failed: 'failed',
  postponed: 'postponed',
  reverted: 'reverted',
  // A timed hold's resume only, which the run history leaves out (the rule's holds list it).
  skipped: 'failed',
  cancelled: 'failed',
  proposed: 'proposed',
  notified: 'notified',
} as const;

/** A proposal closed without a write shows why it was closed; one still waiting shows `proposed`. */
function statusOf(row: RuleActionRow): RuleActionRecord['status'] {
  if (row.state === 'proposed' && row.proposal && row.proposal !== 'pending' && row.proposal !== 'approved')
    return row.proposal;
  return STATUS[row.state];
}

/** The entity a ledger row judged and the one it writes to (itself, or for a budget its holder). */
export function entityRefsOf(row: RuleActionRow): Pick<RuleActionRecord, 'entity' | 'target'> {
  return {
    entity: {
      adAccountId: row.adAccountId,
      level: row.entityLevel,
      externalId: row.entityExternalId,
      name: row.entityName,
    },
    target: {
      adAccountId: row.adAccountId,
      level: row.targetLevel,
      externalId: row.targetExternalId,
      name: row.targetName,
    },
  };
}

/** Who made a ledger row: its rule, or the person or agent named on it (ADR 0160). */
export function actorOf(row: RuleActionRow): LedgerActor {
  if (row.actorType === 'rule') return { type: 'rule', id: row.ruleId, name: null };
  return { type: row.actorType, id: row.actorId, name: row.actorName };
}

export function presentAction(row: RuleActionRow): RuleActionRecord {
  return {
    id: row.id,
    runId: row.runId,
    ruleId: row.ruleId,
    actor: actorOf(row),
    ...entityRefsOf(row),
    type: row.actionType as RuleActionRecord['type'],
    holderReason: (row.holderReason as RuleActionRecord['holderReason']) ?? null,
    change: presentChange(row),
    status: statusOf(row),
    failure: row.error
      ? ({ code: row.error.code, params: row.error.params ?? {} } as RuleActionRecord['failure'])
      : null,
    explanation: row.explanation as Explanation,
    createdAt: row.createdAt.toISOString(),
    appliedAt: row.appliedAt?.toISOString() ?? null,
    revertedAt: row.revertedAt?.toISOString() ?? null,
    revertible: row.state === 'applied' && row.field !== null,
  };
}

export function presentRun(row: RuleRunRow & { actions: RuleActionRow[] }): RuleRun {
  return {
    id: row.id,
    ruleId: row.ruleId,
    trigger: row.trigger,
    slot: row.slot,
    status: row.status,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    evaluated: row.entitiesEvaluated,
    matched: row.entitiesMatched,
    error: row.error ? ({ code: row.error.code, params: row.error.params ?? {} } as RuleRun['error']) : null,
    actions: row.actions.map(presentAction),
    skipped: (row.skipped as LedgerPlan['skipped']).map(({ entity, type, skip }) => ({
      entity: {
        adAccountId: entity.adAccountId,
        level: entity.level,
        externalId: entity.externalId,
        name: entity.name,
      },
      type: type as RunSkip['type'],
      skip: skip as RunSkip['skip'],
    })),
  };
}
