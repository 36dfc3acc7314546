import {
  addDays,
  instantOfWallClock,
  localDate,
  wallClockMs,
  windowMinutes,
  type DaypartWindow,
} from '@adpilot/contracts';

/**
 * Dayparting (ADR 0127): a rule's windows are wall-clock hours of ISO weekdays in each ad account's time zone. The
 * rule runs once at each window's end (it pauses) and its pauses resume at the next window's start. Windows that
 * touch or overlap are one stretch: the end of one that another continues is no end.
 */

const MINUTES_PER_WEEK = 7 * 1440;
const MS_PER_MINUTE = 60_000;

/** ISO weekday (1 = Monday … 7 = Sunday) of a YYYY-MM-DD date. */
function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** Whether a minute of the week (0 = Monday 00:00) falls inside any window. */
function inside(windows: readonly DaypartWindow[], weekMinute: number): boolean {
  const at = ((weekMinute % MINUTES_PER_WEEK) + MINUTES_PER_WEEK) % MINUTES_PER_WEEK;
  return windows.some((window) =>
    window.days.some((day) => {
      const start = (day - 1) * 1440 + windowMinutes(window.from);
      const end = (day - 1) * 1440 + windowMinutes(window.to);
      // Sunday's window up to 24:00 ends at the week's end, which is Monday 00:00 again.
      return (at >= start && at < end) || (end > MINUTES_PER_WEEK && at < end - MINUTES_PER_WEEK);
    }),
  );
}

/** One local moment the windows start or end on a date: minutes since that date's midnight (up to 1440). */
interface Edge {
  date: string;
  minutes: number;
}

/** The real ends (or starts) of the windows on a local date. */
function edgesOn(windows: readonly DaypartWindow[], date: string, kind: 'end' | 'start'): Edge[] {
  const weekday = isoWeekday(date);
  const edges: Edge[] = [];
  for (const window of windows) {
    if (!window.days.includes(weekday)) continue;
    const minutes = windowMinutes(kind === 'end' ? window.to : window.from);
    const weekMinute = (weekday - 1) * 1440 + minutes;
    const real = kind === 'end' ? !inside(windows, weekMinute) : !inside(windows, weekMinute - 1);
    if (real && !edges.some((edge) => edge.minutes === minutes)) edges.push({ date, minutes });
  }
  return edges;
}

const wallClockOf = (edge: Edge) => Date.parse(`${edge.date}T00:00:00Z`) + edge.minutes * MS_PER_MINUTE;

/**
 * The window end a zone's wall clock passed within the last `graceMinutes` at `now`, if any, as its local date and
 * time ("2026-11-01T0000"): the key of the rule's slot for that end, the same in every process.
 */
export function endDue(
  windows: readonly DaypartWindow[],
  timeZone: string,
  now: Date,
  graceMinutes: number,
): string | undefined {
  const wallNow = wallClockMs(timeZone, now.getTime());
  const today = localDate(timeZone, now.getTime());
  for (const date of [addDays(today, -1), today]) {
    for (const edge of edgesOn(windows, date, 'end')) {
      const at = wallClockOf(edge);
      if (at <= wallNow && wallNow < at + graceMinutes * MS_PER_MINUTE) {
        const local = new Date(at).toISOString();
        return `${local.slice(0, 10)}T${local.slice(11, 13)}${local.slice(14, 16)}`;
      }
    }
  }
  return undefined;
}

/** The next instant after `after` at which a window starts on the zone's wall clock (DST included). */
export function nextWindowStart(windows: readonly DaypartWindow[], timeZone: string, after: Date): Date | undefined {
  const today = localDate(timeZone, after.getTime());
  let next: number | undefined;
  for (let offset = -1; offset <= 8; offset += 1) {
    for (const edge of edgesOn(windows, addDays(today, offset), 'start')) {
      const at = instantOfWallClock(timeZone, wallClockOf(edge));
      if (at > after.getTime() && (next === undefined || at < next)) next = at;
    }
  }
  return next === undefined ? undefined : new Date(next);
}
