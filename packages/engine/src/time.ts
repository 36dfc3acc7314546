/**
 * Calendar arithmetic in an ad account's time zone, from instants passed in (never a clock). Local dates are
 * handled as day numbers (days since 1970-01-01) so windows are integer ranges.
 */
import { instantOfWallClock, wallClockMs } from '@adpilot/contracts';

const MS_PER_DAY = 86_400_000;
export const MS_PER_HOUR = 3_600_000;

/** Where an instant falls in a zone: its local day number and the hours elapsed since local midnight. */
export interface LocalTime {
  day: number;
  /** Fractional hours since local midnight, 0 ≤ hour < 24. */
  hour: number;
}

export function localTime(instant: number, timeZone: string): LocalTime {
  const wallClock = wallClockMs(timeZone, instant);
  const day = Math.floor(wallClock / MS_PER_DAY);
  const hour = (wallClock - day * MS_PER_DAY + (instant % 1000)) / MS_PER_HOUR;
  return { day, hour };
}

/** The instant at which a local wall-clock time (day number + ms into it) happens in a zone. */
export function zonedInstant(day: number, msIntoDay: number, timeZone: string): number {
  return instantOfWallClock(timeZone, day * MS_PER_DAY + msIntoDay);
}

/** The last millisecond of a local day, as an instant. */
export function endOfLocalDay(day: number, timeZone: string): number {
  return zonedInstant(day + 1, 0, timeZone) - 1;
}

/** "2026-11-22" → day number. */
export function dayNumber(isoDate: string): number {
  return Math.floor(Date.parse(`${isoDate}T00:00:00Z`) / MS_PER_DAY);
}

/** Day number → "2026-11-22". */
export function isoDate(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function isoInstant(instant: number): string {
  return new Date(instant).toISOString();
}
