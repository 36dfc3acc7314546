import type { EntityActionItem, EntityActionType } from '@adpilot/contracts';

/*
 * A manual change as the dialog builds it (ADR 0108): pause, resume, or a budget set to an amount or moved by an
 * amount or a percent. The server answers what each would do (a dry run, read live) before anything is written.
 */

export type ChangeBy = 'percent' | 'amount';

export interface BudgetChange {
  type: 'set_budget' | 'increase_budget' | 'decrease_budget';
  /** For set_budget the new budget; for a raise or a cut the amount or the percent. */
  value: number;
  by: ChangeBy;
}

export function isBudgetAction(type: EntityActionType): type is BudgetChange['type'] {
  return type === 'set_budget' || type === 'increase_budget' || type === 'decrease_budget';
}

/** The value typed, as a number above 0, or null (empty, negative, zero or not a number). */
export function parseValue(raw: string): number | null {
  const cleaned = raw.replace(/[\s,]/g, '');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** The request item for one entity. */
export function actionItem(entityId: string, type: EntityActionType, change?: BudgetChange): EntityActionItem {
  if (!isBudgetAction(type) || !change) return { entityId, type };
  if (type === 'set_budget' || change.by === 'amount') return { entityId, type, amount: change.value };
  return { entityId, type, percent: change.value };
}
