import {
  toMajorUnits,
  type Explanation,
  type PlannedChange,
  type Rule,
  type RuleActionRecord,
  type RuleBody,
  type RuleRun,
  type RunSkip,
  type RuleWarning,
} from '@adpilot/contracts';
import type { AutomationRuleRow, RuleActionRow, RuleRunRow } from '@adpilot/db';
import type { LedgerPlan } from './rule-plan.ts';
import { ruleWarnings, type OtherRule } from '@adpilot/engine';

/** The stored rule format: everything but the columns the list and the scheduler read. */
export type RuleDefinition = Pick<RuleBody, 'scope' | 'conditions' | 'actions' | 'schedule' | 'safeguards'>;

export function toDefinition(body: RuleDefinition): Record<string, unknown> {
  const { scope, conditions, actions, schedule, safeguards } = body;
  return { scope, conditions, actions, schedule, safeguards };
}

/** The stored row as the rule body the engine evaluates. */
export function toRuleBody(row: AutomationRuleRow): RuleBody {
  return {
    name: row.name,
    description: row.description,
    isActive: row.isActive,
    ...(row.definition as unknown as RuleDefinition),
  };
}

/** The user's rules as the engine's conflict check takes them. */
export function otherRules(rows: readonly AutomationRuleRow[]): OtherRule[] {
  return rows.map((row) => ({ id: row.id, name: row.name, rule: toRuleBody(row) }));
}

/** A rule's warnings: no ceiling on an increase, and the user's other active rules that can act against it. */
export function warningsOf(row: AutomationRuleRow, all: readonly AutomationRuleRow[]): RuleWarning[] {
  return ruleWarnings(toRuleBody(row), otherRules(all), row.id);
}

export function presentRule(row: AutomationRuleRow, warnings: RuleWarning[]): Rule {
  const { scope, conditions, actions, schedule, safeguards } = toRuleBody(row);
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
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastTriggered: row.lastTriggered?.toISOString() ?? null,
    warnings,
  };
}

function presentChange(row: RuleActionRow): PlannedChange | null {
  if (row.field === 'status')
    return { field: 'status', from: row.beforeStatus ?? '', to: row.afterStatus === 'ACTIVE' ? 'ACTIVE' : 'PAUSED' };
  if (row.field !== 'daily_budget' && row.field !== 'lifetime_budget') return null;
  const fromMinor = row.beforeMinor ?? 0;
  const toMinor = row.afterMinor ?? 0;
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
} as const;

export function presentAction(row: RuleActionRow): RuleActionRecord {
  return {
    id: row.id,
    runId: row.runId,
    ruleId: row.ruleId,
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
    type: row.actionType as RuleActionRecord['type'],
    holderReason: (row.holderReason as RuleActionRecord['holderReason']) ?? null,
    change: presentChange(row),
    status: STATUS[row.state],
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
