/** The sandbox's own calendar helpers; local dates and day starts are the shared ones in @adpilot/contracts. */
import { zoneOffsetMs } from '@adpilot/contracts';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** Days since 1970-01-01 of a calendar date: the integer that keys per-day noise. */
export function dayNumber(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed) && new Date(parsed).toISOString().startsWith(value);
}

/** Graph API time format: local wall time with the zone's offset, e.g. 2026-03-01T09:30:00+0700. */
export function formatGraphTime(instant: number, timeZone: string): string {
  const offset = zoneOffsetMs(timeZone, instant);
  const wall = new Date(Math.floor(instant / 1000) * 1000 + offset).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const minutes = Math.abs(offset) / 60_000;
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${wall}${sign}${hh}${mm}`;
}
