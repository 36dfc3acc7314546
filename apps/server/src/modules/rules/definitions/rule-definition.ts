import {
  RULE_APPROVAL_HOURS_DEFAULT,
  RULE_SAFEGUARD_DEFAULTS,
  type RuleBody,
  type RuleWarning,
} from '@adpilot/contracts';
import type { AutomationRuleRow } from '@adpilot/db';
import { ruleWarnings, type OtherRule } from '@adpilot/engine';

/*
 * The rule as the domain reads it: the stored row decoded into the body the engine evaluates, and the checks made
 * against the user's other rules. The presenter (the API's answer) and the runner both start from here.
 */

/** The stored rule format: everything but the columns the list and the scheduler read. */
export type RuleDefinition = Pick<
  RuleBody,
  'scope' | 'conditions' | 'actions' | 'schedule' | 'safeguards' | 'mode' | 'approvalHours'
>;

export function toDefinition(body: RuleDefinition): Record<string, unknown> {
  const { scope, conditions, actions, schedule, safeguards, mode, approvalHours } = body;
  return { scope, conditions, actions, schedule, safeguards, mode, approvalHours };
}

/** The stored row as the rule body the engine evaluates; a rule stored before modes writes its changes itself. */
export function toRuleBody(row: AutomationRuleRow): RuleBody {
  const definition = row.definition as unknown as Partial<RuleDefinition>;
  return {
    name: row.name,
    description: row.description,
    isActive: row.isActive,
    ...(definition as RuleDefinition),
    // A rule stored before a safeguard existed reads with the rule format's default for it (ADR 0076).
    safeguards: { ...RULE_SAFEGUARD_DEFAULTS, ...definition.safeguards },
    mode: definition.mode ?? 'auto',
    approvalHours: definition.approvalHours ?? RULE_APPROVAL_HOURS_DEFAULT,
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
