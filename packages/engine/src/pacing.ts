/**
 * Month pacing (ADR 0123): what an entity spent this local month, and where its spend is heading by the month's
 * end at the pace of its last 7 whole days. Pure; the snapshot and any page call the same functions.
 */

const MS_PER_DAY = 86_400_000;

/** The local month a day number falls in: its 1st (day number), its length, and the day's place in it (1…31). */
export function monthOf(day: number): { first: number; days: number; dayOfMonth: number } {
  const date = new Date(day * MS_PER_DAY);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const first = Math.floor(Date.UTC(year, month, 1) / MS_PER_DAY);
  const next = Math.floor(Date.UTC(year, month + 1, 1) / MS_PER_DAY);
  return { first, days: next - first, dayOfMonth: day - first + 1 };
}

export interface MonthPace {
  /** Spend of the whole days of this month before today (today's figures still settle). */
  monthToDate: number;
  /** Average daily spend over the last 7 whole days. */
  dailyPace: number;
  /** Days of the month left, today included. */
  daysLeft: number;
  /** monthToDate + dailyPace × daysLeft. */
  projected: number;
}

/** Projects month-end spend from this month's whole days and the last 7 days' pace. */
export function projectMonth(input: { today: number; monthToDate: number; last7Days: number }): MonthPace {
  const { days, dayOfMonth } = monthOf(input.today);
  const daysLeft = days - dayOfMonth + 1;
  const dailyPace = input.last7Days / 7;
  return { monthToDate: input.monthToDate, dailyPace, daysLeft, projected: input.monthToDate + dailyPace * daysLeft };
}

/** Where projected spend stands against a monthly budget, in %; null without a budget. */
export function pacingPercent(projected: number, monthlyBudget: number | null): number | null {
  return monthlyBudget === null || monthlyBudget <= 0 ? null : (projected / monthlyBudget) * 100;
}

/** Pacing alert thresholds (ADR 0124): projected over 110 % of the budget, or under 45 % spent at mid-month. */
export const PACING_OVER_PERCENT = 110;
export const PACING_UNDER_PERCENT = 45;

export type PacingAlert = 'over' | 'under';

/**
 * The alert a budget's month calls for on `today`, or null: "over" when the projected month-end spend passes 110 %
 * of the budget; "under" once half the month's days are whole and what they spent is under 45 % of the budget (on
 * track would be 50 %).
 */
export function pacingAlert(today: number, pace: MonthPace, monthlyBudget: number): PacingAlert | null {
  if (monthlyBudget <= 0) return null;
  if (pace.projected * 100 > PACING_OVER_PERCENT * monthlyBudget) return 'over';
  const { days, dayOfMonth } = monthOf(today);
  const wholeDays = dayOfMonth - 1;
  if (wholeDays * 2 >= days && pace.monthToDate * 100 < PACING_UNDER_PERCENT * monthlyBudget) return 'under';
  return null;
}
