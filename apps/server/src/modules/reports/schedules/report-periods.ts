import { addDays, instantOfWallClock, localDate, type ReportFrequency } from '@adpilot/contracts';

/**
 * The periods of a scheduled report (ADR 0080), pure: local calendar dates of the schedule's time zone, time a
 * parameter. A weekly period is Monday–Sunday, a monthly one a calendar month; a period is due at 08:00 local time on
 * the day after it ends.
 */

export interface ReportPeriod {
  /** Both included, YYYY-MM-DD. */
  start: string;
  end: string;
}

/** The local hour a report becomes due, on the day after its period. */
export const REPORT_DUE_HOUR = 8;

/** 0 for Monday … 6 for Sunday. */
const weekdayOf = (date: string) => (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;

/** The period of `frequency` that contains the local date `date`. */
export function periodContaining(frequency: ReportFrequency, date: string): ReportPeriod {
  if (frequency === 'weekly') {
    const start = addDays(date, -weekdayOf(date));
    return { start, end: addDays(start, 6) };
  }
  const start = `${date.slice(0, 8)}01`;
  const next = new Date(`${start}T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return { start, end: addDays(next.toISOString().slice(0, 10), -1) };
}

/** The period just before `period` (what a report compares with). */
export const previousPeriod = (frequency: ReportFrequency, period: ReportPeriod): ReportPeriod =>
  periodContaining(frequency, addDays(period.start, -1));

/** The period just after `period`. */
export const nextPeriod = (frequency: ReportFrequency, period: ReportPeriod): ReportPeriod =>
  periodContaining(frequency, addDays(period.end, 1));

/** The last period wholly over by local date `today` (it ended yesterday at the latest): a preview's, a "send now"'s. */
export const lastFullPeriod = (frequency: ReportFrequency, today: string): ReportPeriod =>
  previousPeriod(frequency, periodContaining(frequency, today));

/** When a period's report is due: 08:00 local time on the day after it ends. */
export function dueAt(timeZone: string, period: ReportPeriod): Date {
  const day = addDays(period.end, 1);
  return new Date(instantOfWallClock(timeZone, Date.parse(`${day}T0${REPORT_DUE_HOUR}:00:00Z`)));
}

/** The latest period whose report is due by `now` (its 08:00 has come). */
export function latestDuePeriod(frequency: ReportFrequency, timeZone: string, now: Date): ReportPeriod {
  const last = lastFullPeriod(frequency, localDate(timeZone, now.getTime()));
  return dueAt(timeZone, last).getTime() <= now.getTime() ? last : previousPeriod(frequency, last);
}

/**
 * The period a schedule's clock sends next, and when: the latest due one if it came due after the schedule was made
 * and has not gone out (late: a worker was down), else the one after it. A schedule never sends a period that was
 * due before it existed.
 */
export function nextScheduledPeriod(
  frequency: ReportFrequency,
  timeZone: string,
  now: Date,
  schedule: { createdAt: Date; sentStarts: ReadonlySet<string> },
): { period: ReportPeriod; dueAt: Date } {
  const latest = latestDuePeriod(frequency, timeZone, now);
  const latestDue = dueAt(timeZone, latest);
  if (latestDue.getTime() > schedule.createdAt.getTime() && !schedule.sentStarts.has(latest.start)) {
    return { period: latest, dueAt: latestDue };
  }
  const next = nextPeriod(frequency, latest);
  return { period: next, dueAt: dueAt(timeZone, next) };
}
