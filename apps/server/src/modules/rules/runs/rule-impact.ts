import {
  addDays,
  IMPACT_TOTALS_WINDOW,
  IMPACT_WINDOW_DAYS,
  localDate,
  type ActionImpact,
  type ImpactDay,
  type ImpactFigures,
  type ImpactWindow,
  type RuleEntityRef,
  type RuleImpactTotals,
  type SpendAvoided,
} from '@adpilot/contracts';

/**
 * The arithmetic of a rule's impact (ADR 0077), pure: no database, no clock of its own. An action's day is the
 * account's local day it was applied on; "before" is the N whole local days before it, "after" the N after it,
 * ended early by a revert or a pause's timed resume (the after stops the day before that day). An after is shown only once its last
 * day has settled: it is older than the days every sync still rewrites, so the figure never changes once shown.
 */

const DAY_MS = 86_400_000;

/** A local date as a whole number of days (days since 1970-01-01), so windows step by integers, not strings. */
export const dayNumber = (date: string): number => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
export const dateOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** An entity's days by day number. */
export type EntityDays = ReadonlyMap<number, DayFigures>;

/** One entity's day (money in major units). */
export interface DayFigures {
  spend: number;
  results: number;
  value: number;
}

export interface ImpactActionInput {
  id: string;
  type: string;
  entity: RuleEntityRef;
  currency: string;
  timeZone: string;
  appliedAt: Date;
  /** When the change ended: its revert, or for a pause its timed resume; null while it stands. Ends "after". */
  endedAt: Date | null;
  revertedAt: Date | null;
  /** A budget change, major units. */
  budget: { from: number; to: number } | null;
}

export interface ImpactClock {
  now: Date;
  /** Days a sync still rewrites (today and this many before it). */
  revisedDays: number;
}

export const cpaOf = (spend: number, results: number): number | null => (results > 0 ? spend / results : null);
export const roasOf = (spend: number, value: number): number | null => (spend > 0 ? value / spend : null);

/** Sums the days `first`…`last` (day numbers, inclusive); a day without a row spent nothing. */
export function sumDays(days: EntityDays, first: number, last: number): DayFigures {
  const total = { spend: 0, results: 0, value: 0 };
  for (let date = first; date <= last; date += 1) {
    const day = days.get(date);
    if (!day) continue;
    total.spend += day.spend;
    total.results += day.results;
    total.value += day.value;
  }
  return total;
}

export function figures(total: DayFigures): ImpactFigures {
  return {
    spend: total.spend,
    results: total.results,
    cpa: cpaOf(total.spend, total.results),
    roas: roasOf(total.spend, total.value),
  };
}

/** The newest local day that has settled for an account: older than every day a sync still rewrites. */
export function lastSettledDay(timeZone: string, clock: ImpactClock): string {
  return addDays(localDate(timeZone, clock.now.getTime()), -(clock.revisedDays + 1));
}

const settledCache = new Map<string, number>();
function settledDayNumber(timeZone: string, clock: ImpactClock): number {
  const key = `${timeZone}|${clock.now.getTime()}|${clock.revisedDays}`;
  let day = settledCache.get(key);
  if (day === undefined) {
    if (settledCache.size > 64) settledCache.clear();
    day = dayNumber(lastSettledDay(timeZone, clock));
    settledCache.set(key, day);
  }
  return day;
}

/** The action's local day and the day its change ended (day numbers), each read once. */
interface ActionDays {
  actionDay: number;
  endDay: number | null;
}

function actionDays(action: Pick<ImpactActionInput, 'timeZone' | 'appliedAt' | 'endedAt'>): ActionDays {
  return {
    actionDay: dayNumber(localDate(action.timeZone, action.appliedAt.getTime())),
    endDay: action.endedAt ? dayNumber(localDate(action.timeZone, action.endedAt.getTime())) : null,
  };
}

export function impactWindow(
  action: Pick<ImpactActionInput, 'timeZone' | 'appliedAt' | 'endedAt'>,
  days: EntityDays,
  n: number,
  clock: ImpactClock,
  known: ActionDays = actionDays(action),
): ImpactWindow & { afterTotal: DayFigures | null; beforeTotal: DayFigures } {
  const { actionDay, endDay } = known;
  const beforeTotal = sumDays(days, actionDay - n, actionDay - 1);
  const first = actionDay + 1;
  const last = endDay !== null ? Math.min(actionDay + n, endDay - 1) : actionDay + n;
  const afterDays = Math.max(0, last - first + 1);
  const settled = last <= settledDayNumber(action.timeZone, clock);
  const afterTotal = afterDays > 0 && settled ? sumDays(days, first, last) : null;
  return {
    days: n,
    afterDays,
    before: figures(beforeTotal),
    after: afterTotal ? figures(afterTotal) : null,
    beforeTotal,
    afterTotal,
  };
}

/** A pause's spend avoided: the 7 days before's average daily spend × the days paused (to its end, or now). */
export function spendAvoided(
  action: Pick<ImpactActionInput, 'timeZone' | 'appliedAt' | 'endedAt'>,
  days: EntityDays,
  now: Date,
  known: ActionDays = actionDays(action),
): SpendAvoided {
  const dailySpend = sumDays(days, known.actionDay - 7, known.actionDay - 1).spend / 7;
  const end = action.endedAt && action.endedAt < now ? action.endedAt : now;
  const pausedDays = Math.max(0, end.getTime() - action.appliedAt.getTime()) / DAY_MS;
  return {
    estimate: true,
    amount: dailySpend * pausedDays,
    dailySpend,
    days: pausedDays,
    ongoing: action.endedAt === null || action.endedAt > now,
  };
}

export const BUDGET_TYPES: ReadonlySet<string> = new Set(['increase_budget', 'decrease_budget', 'set_budget']);

export interface ComputedAction {
  impact: ActionImpact;
  /** The totals window's sums, when both sides settled. */
  compared: { before: DayFigures; after: DayFigures } | null;
}

export function actionImpact(action: ImpactActionInput, days: EntityDays, clock: ImpactClock): ComputedAction {
  const known = actionDays(action);
  const windows = IMPACT_WINDOW_DAYS.map((n) => impactWindow(action, days, n, clock, known));
  const totalsWindow = windows.find((window) => window.days === IMPACT_TOTALS_WINDOW);
  return {
    impact: {
      actionId: action.id,
      type: action.type,
      entity: action.entity,
      currency: action.currency,
      appliedAt: action.appliedAt.toISOString(),
      localDate: dateOfDay(known.actionDay),
      revertedAt: action.revertedAt?.toISOString() ?? null,
      budget: action.budget,
      windows: windows.map(({ days: n, afterDays, before, after }) => ({ days: n, afterDays, before, after })),
      spendAvoided: action.type === 'pause' ? spendAvoided(action, days, clock.now, known) : null,
    },
    compared:
      BUDGET_TYPES.has(action.type) && totalsWindow?.afterTotal
        ? { before: totalsWindow.beforeTotal, after: totalsWindow.afterTotal }
        : null,
  };
}

/**
 * The spend-weighted mean of a ratio over entities: Σ(spend × ratio) / Σ spend, over those where the ratio is
 * defined; null when none is. Weighted by spend, ROAS is the pooled Σ value / Σ spend.
 */
export function spendWeighted(items: readonly { spend: number; ratio: number | null }[]): number | null {
  let weight = 0;
  let sum = 0;
  for (const { spend, ratio } of items) {
    if (ratio === null || spend <= 0) continue;
    weight += spend;
    sum += spend * ratio;
  }
  return weight > 0 ? sum / weight : null;
}

/** The money of applied actions (one currency's, the caller makes sure): budgets raised and lowered, spend avoided. */
export function actionMoney(impacts: Iterable<Pick<ActionImpact, 'budget' | 'spendAvoided'>>) {
  let raised = 0;
  let lowered = 0;
  let avoided = 0;
  for (const impact of impacts) {
    if (impact.budget) {
      const change = impact.budget.to - impact.budget.from;
      if (change > 0) raised += change;
      else lowered -= change;
    }
    avoided += impact.spendAvoided?.amount ?? 0;
  }
  return { raised, lowered, avoided };
}

export function ruleTotals(computed: readonly ComputedAction[]): RuleImpactTotals {
  const byType: Record<string, number> = {};
  const currencies = new Set<string>();
  for (const { impact } of computed) {
    byType[impact.type] = (byType[impact.type] ?? 0) + 1;
    currencies.add(impact.currency);
  }
  const { raised, lowered, avoided } = actionMoney(computed.map((action) => action.impact));
  const single = currencies.size <= 1;
  const pairs = single ? computed.flatMap((action) => (action.compared ? [action.compared] : [])) : [];
  const side = (pick: 'before' | 'after') => ({
    cpa: spendWeighted(
      pairs.map((pair) => ({ spend: pair[pick].spend, ratio: cpaOf(pair[pick].spend, pair[pick].results) })),
    ),
    roas: spendWeighted(
      pairs.map((pair) => ({ spend: pair[pick].spend, ratio: roasOf(pair[pick].spend, pair[pick].value) })),
    ),
  });
  return {
    actionsApplied: computed.length,
    byType,
    currency: single ? ([...currencies][0] ?? null) : null,
    budgetRaised: single ? raised : null,
    budgetLowered: single ? lowered : null,
    spendAvoided: single ? avoided : null,
    compared: pairs.length,
    before: side('before'),
    after: side('after'),
  };
}

/**
 * The touched entities' days summed per day (first…last, every day, none missing), each with its CPA and ROAS: the
 * line the chart places the actions on.
 */
export function dailyLine(entities: Iterable<EntityDays>, first: string, last: string): ImpactDay[] {
  const from = dayNumber(first);
  const to = dayNumber(last);
  const sums: DayFigures[] = Array.from({ length: Math.max(0, to - from + 1) }, () => ({
    spend: 0,
    results: 0,
    value: 0,
  }));
  for (const days of entities) {
    for (const [day, figures] of days) {
      const sum = sums[day - from];
      if (!sum) continue;
      sum.spend += figures.spend;
      sum.results += figures.results;
      sum.value += figures.value;
    }
  }
  return sums.map((day, index) => ({
    date: dateOfDay(from + index),
    spend: day.spend,
    cpa: cpaOf(day.spend, day.results),
    roas: roasOf(day.spend, day.value),
  }));
}
