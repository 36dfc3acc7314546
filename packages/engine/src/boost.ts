import {
  addDays,
  instantOfWallClock,
  localDate,
  windowMinutes,
  type BoostBudgetAction,
  type PlannedChange,
} from '@adpilot/contracts';
import { isoInstant } from './time.ts';

const MS_PER_MINUTE = 60_000;
const QUARTER_MS = 15 * MS_PER_MINUTE;

/** The local window `from`–`to` of a day (YYYY-MM-DD) in a zone, as instants ("24:00" is the next midnight). */
function windowOn(date: string, from: string, to: string, timeZone: string): { start: number; end: number } {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  return {
    start: instantOfWallClock(timeZone, midnight + windowMinutes(from) * MS_PER_MINUTE),
    end: instantOfWallClock(timeZone, midnight + windowMinutes(to) * MS_PER_MINUTE),
  };
}

/**
 * The window a boost planned at `now` covers (ADR 0191): today's `from`–`to` in the account's zone while at least a
 * quarter hour of it is ahead, else the next day's. A window under way starts at the next quarter hour, since Meta
 * takes schedules on quarter hours and none in the past.
 */
export function boostWindow(action: Pick<BoostBudgetAction, 'from' | 'to'>, timeZone: string, now: number) {
  const today = localDate(timeZone, now);
  for (const offset of [0, 1, 2]) {
    const { start, end } = windowOn(addDays(today, offset), action.from, action.to, timeZone);
    const begins = start > now ? start : Math.ceil(now / QUARTER_MS) * QUARTER_MS;
    if (end - begins >= QUARTER_MS) return { start: begins, end };
  }
  /* c8 ignore next: a window of at least a quarter hour always comes within two days */
  throw new Error('No boost window ahead');
}

/**
 * The change a boost makes: the entity's own budget raised by a percentage (Meta's MULTIPLIER, `budget_value` the
 * increase in %) or an amount (ABSOLUTE, the increase in minor units) for the window.
 */
export function planBoost(input: {
  action: BoostBudgetAction;
  budgetField: 'daily_budget' | 'lifetime_budget';
  currentMinor: number;
  offset: number;
  timeZone: string;
  now: number;
}): PlannedChange {
  const { action, currentMinor, offset } = input;
  const percent = action.unit === 'percent';
  const budgetValue = percent ? Math.round(action.by) : Math.round(action.by * offset);
  const toMinor = percent ? Math.round(currentMinor * (1 + action.by / 100)) : currentMinor + budgetValue;
  const window = boostWindow(action, input.timeZone, input.now);
  return {
    field: 'budget_schedule',
    budgetField: input.budgetField,
    from: currentMinor / offset,
    to: toMinor / offset,
    fromMinor: currentMinor,
    toMinor,
    budgetValue,
    budgetValueType: percent ? 'MULTIPLIER' : 'ABSOLUTE',
    timeStart: isoInstant(window.start),
    timeEnd: isoInstant(window.end),
  };
}
