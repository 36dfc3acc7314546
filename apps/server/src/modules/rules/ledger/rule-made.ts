import type { RuleActionRow } from '@adpilot/db';

/** A ledger row a rule made: its rule and run are named (a change by hand has neither, ADR 0160). */
export type RuleMadeRow = RuleActionRow & { ruleId: string; runId: string };

export function isRuleMade(row: RuleActionRow): row is RuleMadeRow {
  return row.ruleId !== null && row.runId !== null;
}
