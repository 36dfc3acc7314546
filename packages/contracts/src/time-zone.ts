/**
 * Where an instant stands on a time zone's wall clock. The engine (rule windows) and the Meta sandbox (insights
 * days, Graph times) both read a zone's offset this one way, so the two never disagree on a day's bounds.
 */

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
