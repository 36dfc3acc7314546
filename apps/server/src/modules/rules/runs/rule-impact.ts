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

/** Sums the days `first`…`last` (inclusive); a day without a row spent nothing. */
export function sumDays(days: ReadonlyMap<string, DayFigures>, first: string, last: string): DayFigures {
  const total = { spend: 0, results: 0, value: 0 };
  for (let date = first; date <= last; date = addDays(date, 1)) {
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

export function impactWindow(
  action: Pick<ImpactActionInput, 'timeZone' | 'appliedAt' | 'endedAt'>,
  days: ReadonlyMap<string, DayFigures>,
  n: number,
  clock: ImpactClock,
): ImpactWindow & { afterTotal: DayFigures | null; beforeTotal: DayFigures } {
  const actionDay = localDate(action.timeZone, action.appliedAt.getTime());
  const beforeTotal = sumDays(days, addDays(actionDay, -n), addDays(actionDay, -1));
  let last = addDays(actionDay, n);
  if (action.endedAt) {
    const dayBeforeEnd = addDays(localDate(action.timeZone, action.endedAt.getTime()), -1);
    if (dayBeforeEnd < last) last = dayBeforeEnd;
  }
  const first = addDays(actionDay, 1);
  const afterDays = last >= first ? Math.round((Date.parse(last) - Date.parse(first)) / DAY_MS) + 1 : 0;
  const settled = last <= lastSettledDay(action.timeZone, clock);
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
  days: ReadonlyMap<string, DayFigures>,
  now: Date,
): SpendAvoided {
  const actionDay = localDate(action.timeZone, action.appliedAt.getTime());
  const dailySpend = sumDays(days, addDays(actionDay, -7), addDays(actionDay, -1)).spend / 7;
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

export function actionImpact(
  action: ImpactActionInput,
  days: ReadonlyMap<string, DayFigures>,
  clock: ImpactClock,
): ComputedAction {
  const windows = IMPACT_WINDOW_DAYS.map((n) => impactWindow(action, days, n, clock));
  const totalsWindow = windows.find((window) => window.days === IMPACT_TOTALS_WINDOW);
  return {
    impact: {
      actionId: action.id,
      type: action.type,
      entity: action.entity,
      currency: action.currency,
      appliedAt: action.appliedAt.toISOString(),
      localDate: localDate(action.timeZone, action.appliedAt.getTime()),
      revertedAt: action.revertedAt?.toISOString() ?? null,
      budget: action.budget,
      windows: windows.map(({ days: n, afterDays, before, after }) => ({ days: n, afterDays, before, after })),
      spendAvoided: action.type === 'pause' ? spendAvoided(action, days, clock.now) : null,
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

export function ruleTotals(computed: readonly ComputedAction[]): RuleImpactTotals {
  const byType: Record<string, number> = {};
  const currencies = new Set<string>();
  let raised = 0;
  let lowered = 0;
  let avoided = 0;
  for (const { impact } of computed) {
    byType[impact.type] = (byType[impact.type] ?? 0) + 1;
    currencies.add(impact.currency);
    if (impact.budget) {
      const change = impact.budget.to - impact.budget.from;
      if (change > 0) raised += change;
      else lowered -= change;
    }
    avoided += impact.spendAvoided?.amount ?? 0;
  }
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

/** The touched entities' days summed (first…last), each with its CPA and ROAS: the chart's line. */
export function dailyLine(
  entityDays: Iterable<ReadonlyMap<string, DayFigures>>,
  first: string,
  last: string,
): ImpactDay[] {
  const sums = new Map<string, DayFigures>();
  for (const days of entityDays) {
    for (const [date, day] of days) {
      if (date < first || date > last) continue;
      const sum = sums.get(date) ?? { spend: 0, results: 0, value: 0 };
      sum.spend += day.spend;
      sum.results += day.results;
      sum.value += day.value;
      sums.set(date, sum);
    }
  }
  const line: ImpactDay[] = [];
  for (let date = first; date <= last; date = addDays(date, 1)) {
    const day = sums.get(date) ?? { spend: 0, results: 0, value: 0 };
    line.push({ date, spend: day.spend, cpa: cpaOf(day.spend, day.results), roas: roasOf(day.spend, day.value) });
  }
  return line;
}
