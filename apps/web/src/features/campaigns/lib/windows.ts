import {
  ENTITY_WINDOW_MAX_DAYS,
  ENTITY_WINDOWS,
  type EntityAccountWindow,
  type EntityWindow,
} from '@adpilot/contracts';

/*
 * The explorer's windows (ADR 0106): today, yesterday, the last 7, 14, 30 or 90 whole days (ending yesterday, as
 * Meta's "Last N days"), or a custom range. The server resolves a named window in each account's own time zone, so
 * "today" is each account's today; a custom range is the same local dates in every account.
 */

export const WINDOW_CHOICES = [...ENTITY_WINDOWS, 'custom'] as const;
export type WindowChoice = EntityWindow | 'custom';

export interface DayRange {
  /** Local calendar days, both included. */
  from: string;
  to: string;
}

export function isWindowChoice(value: unknown): value is WindowChoice {
  return typeof value === 'string' && (WINDOW_CHOICES as readonly string[]).includes(value);
}

/** How many days a range covers (0 when it is not a range). */
export function rangeDays({ from, to }: DayRange): number {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end) || end < start) return 0;
  return Math.round((end - start) / 86_400_000) + 1;
}

export type RangeProblem = 'missing' | 'fromAfterTo' | 'tooLong' | null;

export function rangeProblem(range: DayRange): RangeProblem {
  if (!range.from || !range.to) return 'missing';
  if (range.from > range.to) return 'fromAfterTo';
  return rangeDays(range) > ENTITY_WINDOW_MAX_DAYS ? 'tooLong' : null;
}

/** How many of an account's window days Meta may still revise (0 when every day is final). */
export function settlingDays(account: Pick<EntityAccountWindow, 'from' | 'to' | 'settlingFrom'>): number {
  if (account.to < account.settlingFrom) return 0;
  const from = account.from > account.settlingFrom ? account.from : account.settlingFrom;
  return rangeDays({ from, to: account.to });
}

/** The query a window choice sends: a named window, or the custom range's dates. */
export function windowQuery(
  choice: WindowChoice,
  custom: DayRange,
): { window?: EntityWindow; from?: string; to?: string } {
  return choice === 'custom' ? { from: custom.from, to: custom.to } : { window: choice };
}
