/**
 * Calendar arithmetic in an ad account's time zone, from instants passed in (never a clock). Local dates are
 * handled as day numbers (days since 1970-01-01) so windows are integer ranges.
 */

const MS_PER_DAY = 86_400_000;
export const MS_PER_HOUR = 3_600_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

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

/** Where an instant falls in a zone: its local day number and the hours elapsed since local midnight. */
export interface LocalTime {
  day: number;
  /** Fractional hours since local midnight, 0 ≤ hour < 24. */
  hour: number;
}

export function localTime(instant: number, timeZone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wallClock = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  const day = Math.floor(wallClock / MS_PER_DAY);
  const hour = (wallClock - day * MS_PER_DAY + (instant % 1000)) / MS_PER_HOUR;
  return { day, hour };
}

/** The zone's offset from UTC at an instant, in milliseconds (Bangkok +7 h, New York −5 or −4 h). */
function zoneOffset(instant: number, timeZone: string): number {
  const { day, hour } = localTime(instant, timeZone);
  return Math.round((day * MS_PER_DAY + hour * MS_PER_HOUR - instant) / 1000) * 1000;
}

/** The instant at which a local wall-clock time (day number + ms into it) happens in a zone. */
export function zonedInstant(day: number, msIntoDay: number, timeZone: string): number {
  const wallClock = day * MS_PER_DAY + msIntoDay;
  const guess = wallClock - zoneOffset(wallClock, timeZone);
  return wallClock - zoneOffset(guess, timeZone);
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

/** Whether the zone is one the runtime knows: an unknown zone must fail loudly, not evaluate in UTC. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}
