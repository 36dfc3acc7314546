import type { RuleActionType, RuleBacktest, RuleEntityRef } from '@adpilot/contracts';

/** What the replayed rule would have done to one ad object over the whole backtest. */
export interface BacktestEntityOutcome {
  entity: RuleEntityRef;
  /** How many changes it would have had, and of which kinds, in the order first met. */
  changes: number;
  byType: { type: RuleActionType; count: number }[];
  /** Its budget before the first change and after the last one (major units), if the rule changed a budget. */
  budget: { from: number; to: number } | null;
  /** Its status after the last status change, if the rule paused or resumed it. */
  status: string | null;
  firstDate: string;
  lastDate: string;
}

const keyOf = (ref: RuleEntityRef) => `${ref.adAccountId}|${ref.level}|${ref.externalId}`;

/**
 * The backtest's firings grouped by the object each would have changed (the budget holder for a budget change), most
 * changed first: the list beside the chart, so "+8,480 net" reads as which ad sets got how much.
 */
export function backtestEntities(backtest: RuleBacktest): BacktestEntityOutcome[] {
  const outcomes = new Map<string, BacktestEntityOutcome>();
  for (const day of backtest.days) {
    for (const firing of day.firings) {
      const key = keyOf(firing.target);
      let outcome = outcomes.get(key);
      if (!outcome) {
        outcome = {
          entity: firing.target,
          changes: 0,
          byType: [],
          budget: null,
          status: null,
          firstDate: day.date,
          lastDate: day.date,
        };
        outcomes.set(key, outcome);
      }
      outcome.changes += 1;
      outcome.lastDate = day.date;
      const kind = outcome.byType.find((entry) => entry.type === firing.type);
      if (kind) kind.count += 1;
      else outcome.byType.push({ type: firing.type, count: 1 });
      const change = firing.change;
      if (change?.field === 'status') outcome.status = change.to;
      else if (change) outcome.budget = { from: outcome.budget?.from ?? change.from, to: change.to };
    }
  }
  return [...outcomes.values()].sort(
    (a, b) =>
      b.changes - a.changes ||
      a.entity.name.localeCompare(b.entity.name) ||
      keyOf(a.entity).localeCompare(keyOf(b.entity)),
  );
}
