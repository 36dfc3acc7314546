import {
  toMajorUnits,
  toMinorUnits,
  type EntityActionItem,
  type EntityActionRefusalCode,
  type EntityActionResult,
  type EntityBudget,
} from '@adpilot/contracts';

/** Meta's limit: four budget changes an hour on one budget (ad set or campaign). */
export const BUDGET_CHANGES_PER_HOUR = 4;

/** What a manual change is decided on: the entity as the mirror holds it, and its account. */
export interface ManualTarget {
  id: string;
  status: string;
  budget: EntityBudget;
  currency: string;
}

export interface ManualAccount {
  readOnly: boolean;
  needsReauth: boolean;
  /** Meta's minimum daily budget, in the currency's minor units (null: not known). */
  minDailyBudget: number | null;
}

/** The budget changes applied on a holder in the last hour: how many, and when the oldest of them was. */
export interface RecentChanges {
  count: number;
  oldestAt: Date | null;
}

type Params = NonNullable<EntityActionResult['params']>;

function refused(
  item: EntityActionItem,
  code: EntityActionRefusalCode,
  params: Params = {},
  rest: Partial<EntityActionResult> = {},
): EntityActionResult {
  return {
    entityId: item.entityId,
    outcome: 'refused',
    code,
    params,
    targetId: null,
    field: null,
    from: null,
    to: null,
    currency: null,
    ...rest,
  };
}

/** The new budget of a change, in minor units (Meta's integers), from the current one. */
function newBudget(item: EntityActionItem, currentMinor: number, currency: string): number {
  const amount = item.amount === undefined ? 0 : toMinorUnits(item.amount, currency);
  if (item.type === 'set_budget') return amount;
  const delta = item.percent !== undefined ? Math.round((currentMinor * item.percent) / 100) : amount;
  return item.type === 'increase_budget' ? currentMinor + delta : currentMinor - delta;
}

/**
 * What one change by hand would do (issue 28), as a pure decision on the mirror's values: from → to, or why it is
 * refused, in the order a person would be told (the account first, then the entity, then Meta's limits). The write
 * itself reads the live value again before it is made.
 */
export function planManual(
  item: EntityActionItem,
  target: ManualTarget | undefined,
  account: ManualAccount | undefined,
  recent: (holderId: string) => RecentChanges,
  now: Date,
): EntityActionResult {
  if (!target || !account) return refused(item, 'ENTITY_NOT_FOUND');
  if (account.needsReauth) return refused(item, 'META_REAUTH_REQUIRED');
  if (account.readOnly) return refused(item, 'AD_ACCOUNT_READ_ONLY');
  if (target.status === 'ARCHIVED' || target.status === 'DELETED')
    return refused(item, 'NOT_EDITABLE', { status: target.status });
  const base = { entityId: item.entityId, currency: target.currency };
  if (item.type === 'pause' || item.type === 'resume') {
    const wanted = item.type === 'pause' ? 'PAUSED' : 'ACTIVE';
    if (target.status === wanted)
      return refused(item, item.type === 'pause' ? 'ALREADY_PAUSED' : 'ALREADY_ACTIVE', { status: target.status });
    return { ...base, outcome: 'would_apply', targetId: target.id, field: 'status', from: target.status, to: wanted };
  }
  const { budget } = target;
  if (budget.holderId === null)
    return refused(item, budget.holderLevel === 'adset' ? 'NO_BUDGET_HOLDER' : 'NO_BUDGET', {
      holderLevel: budget.holderLevel,
    });
  const field = budget.daily !== null ? 'daily_budget' : budget.lifetime !== null ? 'lifetime_budget' : null;
  const current = budget.daily ?? budget.lifetime;
  if (field === null || current === null) return refused(item, 'NO_BUDGET', { holderLevel: budget.holderLevel });
  const currentMinor = toMinorUnits(current, target.currency);
  const toMinor = newBudget(item, currentMinor, target.currency);
  const change = { targetId: budget.holderId, field, from: current, currency: target.currency } as const;
  const to = toMajorUnits(toMinor, target.currency);
  if (toMinor === currentMinor) return refused(item, 'UNCHANGED', { current }, { ...change, to });
  const minimum = account.minDailyBudget;
  if (toMinor <= 0 || (minimum !== null && toMinor < minimum))
    return refused(
      item,
      'BELOW_ACCOUNT_MINIMUM',
      {
        amount: to,
        minimum: minimum === null ? null : toMajorUnits(minimum, target.currency),
        currency: target.currency,
      },
      { ...change, to },
    );
  const changes = recent(budget.holderId);
  if (changes.count >= BUDGET_CHANGES_PER_HOUR) {
    const until = changes.oldestAt ? new Date(changes.oldestAt.getTime() + 3_600_000) : now;
    return refused(
      item,
      'BUDGET_CHANGE_LIMIT',
      { limit: BUDGET_CHANGES_PER_HOUR, count: changes.count, until: until.toISOString() },
      { ...change, to },
    );
  }
  return { ...base, outcome: 'would_apply', ...change, to };
}
