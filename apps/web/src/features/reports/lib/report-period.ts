import { addDays, isKnownTimeZone, localDate, type ReportFrequency } from '@adpilot/contracts';

export interface ReportPeriod {
  /** Local dates of the schedule's time zone, both included. */
  start: string;
  end: string;
}

/**
 * The period a report sent at `now` covers: the last full Monday–Sunday week, or the last full calendar month, in the
 * schedule's time zone (UTC for a zone the browser does not know). "Send now" asks what it will send with this.
 */
export function lastFullPeriod(frequency: ReportFrequency, timeZone: string, now: Date = new Date()): ReportPeriod {
  const today = localDate(isKnownTimeZone(timeZone) ? timeZone : 'UTC', now.getTime());
  if (frequency === 'weekly') {
    // getUTCDay of a date read as UTC is its weekday: 0 Sunday … 6 Saturday; Monday starts the week.
    const sinceMonday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
    const monday = addDays(today, -sinceMonday);
    return { start: addDays(monday, -7), end: addDays(monday, -1) };
  }
  const end = addDays(`${today.slice(0, 7)}-01`, -1);
  return { start: `${end.slice(0, 7)}-01`, end };
}
