import { countConditions, type Rule } from '@adpilot/contracts';

export interface RuleStats {
  total: number;
  active: number;
  /** Rules that have acted at least once (lastTriggered is set). */
  haveRun: number;
  /** Leaf conditions across every rule, counted through nested groups. */
  conditions: number;
}

export function ruleStats(rules: readonly Rule[]): RuleStats {
  return {
    total: rules.length,
    active: rules.filter((rule) => rule.isActive).length,
    haveRun: rules.filter((rule) => rule.lastTriggered !== null).length,
    conditions: rules.reduce((sum, rule) => sum + countConditions(rule.conditions), 0),
  };
}
