/**
 * Where an instant stands on a time zone's wall clock, and calendar dates. The engine (rule windows), the server
 * (an account's "today", daily rule slots, digest hours) and the Meta sandbox (insights days, Graph times) all read a
 * zone this one way, so they never disagree on a day's bounds.
 */

const MS_PER_DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A cached formatter for a zone; throws a RangeError for a zone the runtime does not know. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone's wall-clock reading of an instant (to the whole second), as milliseconds counted as if it were UTC. */
export function wallClockMs(timeZone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
}

/** Offset of a time zone from UTC at an instant, in ms (positive east of Greenwich: Bangkok +7 h, New York −5 or −4 h). */
export function zoneOffsetMs(timeZone: string, instant: number): number {
  return wallClockMs(timeZone, instant) - Math.floor(instant / 1000) * 1000;
}

/** Whether the zone is one the runtime knows: an unknown zone must fail loudly, not count as UTC. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The instant at which a wall-clock reading (ms counted as if UTC) happens in a zone; two passes settle DST edges. */
export function instantOfWallClock(timeZone: string, wallClock: number): number {
  const guess = wallClock - zoneOffsetMs(timeZone, wallClock);
  return wallClock - zoneOffsetMs(timeZone, guess);
}

/** The calendar date (YYYY-MM-DD) of an instant in a time zone: what "today" means for an ad account. */
export function localDate(timeZone: string, instant: number): string {
  return new Date(wallClockMs(timeZone, instant)).toISOString().slice(0, 10);
}

/**
 * "Today" for a workspace's windows: the latest local date among its accounts' zones, so no account's today falls
 * after a window's end (ADR 0131); null with no known zone.
 */
export function latestLocalDate(timeZones: readonly string[], instant: number): string | null {
  let latest: string | null = null;
  for (const timeZone of timeZones) {
    if (!isKnownTimeZone(timeZone)) continue;
    const date = localDate(timeZone, instant);
    if (latest === null || date > latest) latest = date;
  }
  return latest;
}

/** Whole minutes since local midnight of an instant in a time zone (0 to 1439). */
export function localMinutesOfDay(timeZone: string, instant: number): number {
  const wallClock = wallClockMs(timeZone, instant);
  return Math.floor((wallClock - Math.floor(wallClock / MS_PER_DAY) * MS_PER_DAY) / 60_000);
}

const dayStarts = new Map<string, number>();

/** The instant a local calendar day (YYYY-MM-DD) begins in a time zone. */
export function startOfLocalDay(timeZone: string, date: string): number {
  const key = `${timeZone}|${date}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    start = instantOfWallClock(timeZone, Date.parse(`${date}T00:00:00Z`));
    dayStarts.set(key, start);
  }
  return start;
}

/** Adds whole days to a YYYY-MM-DD date (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * MS_PER_DAY).toISOString().slice(0, 10);
}

/**
 * The next instant after `after` at which a zone's wall clock reads `time` (HH:MM): today's if it is still ahead,
 * else tomorrow's.
 */
export function nextLocalTime(timeZone: string, time: string, after: number): number {
  const today = localDate(timeZone, after);
  for (const date of [today, addDays(today, 1), addDays(today, 2)]) {
    const at = instantOfWallClock(timeZone, Date.parse(`${date}T${time}:00Z`));
    if (at > after) return at;
  }
  return instantOfWallClock(timeZone, Date.parse(`${addDays(today, 1)}T${time}:00Z`));
}
