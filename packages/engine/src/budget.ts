import type { ActionSkip, PlannedChange, RuleAction } from '@adpilot/contracts';

/**
 * A new budget for one budget action, in minor units, never outside [floor, ceiling] nor under the account's
 * minimum daily budget. An increase never lowers a budget and a decrease never raises one: when the bounds would
 * force that, the action is skipped with the bound that stopped it.
 *
 * The minimum bounds lifetime budgets too: Meta refuses a lifetime budget under one day's minimum (it asks for the
 * minimum times the days of the schedule, which the engine does not know, so this bound is necessary, not
 * sufficient; ADR 0055).
 */

type BudgetAction = Extract<RuleAction, { type: 'increase_budget' | 'decrease_budget' | 'set_budget' }>;

export interface BudgetInput {
  action: BudgetAction;
  field: 'daily_budget' | 'lifetime_budget';
  currentMinor: number;
  /** Minor units per major unit. */
  offset: number;
  /** The account's minimum daily budget in minor units (a lower bound for lifetime budgets too), or null. */
  minimumMinor: number | null;
}

export type BudgetOutcome = { change: PlannedChange; skip: null } | { change: null; skip: ActionSkip };

const skip = (code: ActionSkip['code'], params: ActionSkip['params']): BudgetOutcome => ({
  change: null,
  skip: { code, params },
});

export function planBudget({ action, field, currentMinor, offset, minimumMinor }: BudgetInput): BudgetOutcome {
  const major = (minor: number) => minor / offset;
  const current = major(currentMinor);
  const minimum = minimumMinor;

  if (action.type === 'set_budget') {
    const target = Math.round(action.amount * offset);
    if (minimum !== null && target < minimum) {
      return skip('below_account_minimum', { amount: action.amount, minimum: major(minimum) });
    }
    return finish(field, currentMinor, target, offset);
  }

  // Bounds rounded inwards, so rounding to whole minor units can never step outside them.
  const ceiling = action.ceiling === undefined ? Infinity : Math.floor(action.ceiling * offset + 1e-6);
  const floor = action.floor === undefined ? 0 : Math.ceil(action.floor * offset - 1e-6);
  const low = Math.max(floor, minimum ?? 0, 1);
  if (ceiling < low) {
    if (minimum !== null && ceiling < minimum) {
      return skip('ceiling_below_account_minimum', { ceiling: major(ceiling), minimum: major(minimum) });
    }
    return skip('at_floor', { floor: major(floor), current });
  }

  const delta = action.unit === 'percent' ? (currentMinor * action.by) / 100 : action.by * offset;
  if (action.type === 'increase_budget') {
    if (currentMinor >= ceiling) return skip('at_ceiling', { ceiling: major(ceiling), current });
    const target = Math.min(ceiling, Math.max(low, Math.round(currentMinor + delta)));
    return finish(field, currentMinor, target, offset);
  }
  if (currentMinor <= low) {
    return minimum !== null && low === minimum && minimum >= floor
      ? skip('at_account_minimum', { minimum: major(minimum), current })
      : skip('at_floor', { floor: major(floor), current });
  }
  const target = Math.max(low, Math.min(ceiling, Math.round(currentMinor - delta)));
  return finish(field, currentMinor, target, offset);
}

function finish(field: BudgetInput['field'], fromMinor: number, toMinor: number, offset: number): BudgetOutcome {
  if (toMinor === fromMinor) return skip('unchanged', { current: fromMinor / offset });
  return {
    change: { field, from: fromMinor / offset, to: toMinor / offset, fromMinor, toMinor },
    skip: null,
  };
}
