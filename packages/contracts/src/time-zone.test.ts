import { describe, expect, it } from 'vitest';
import {
  addDays,
  isKnownTimeZone,
  latestLocalDate,
  localDate,
  localMinutesOfDay,
  startOfLocalDay,
  wallClockMs,
  zoneOffsetMs,
} from './time-zone.ts';

const HOUR = 3_600_000;

describe('zone offsets', () => {
  it('reads a fixed zone and both sides of a daylight-saving switch', () => {
    expect(zoneOffsetMs('Asia/Bangkok', Date.parse('2026-03-01T12:00:00Z'))).toBe(7 * HOUR);
    // New York springs forward at 07:00 UTC on 2026-03-08.
    expect(zoneOffsetMs('America/New_York', Date.parse('2026-03-08T06:59:59Z'))).toBe(-5 * HOUR);
    expect(zoneOffsetMs('America/New_York', Date.parse('2026-03-08T07:00:00Z'))).toBe(-4 * HOUR);
    expect(zoneOffsetMs('Asia/Kolkata', Date.parse('2026-03-01T00:00:00Z'))).toBe(5.5 * HOUR);
  });

  it('counts whole seconds, whatever the milliseconds of the instant', () => {
    const instant = Date.parse('2026-03-01T23:59:59.999Z');
    expect(wallClockMs('Asia/Bangkok', instant)).toBe(Date.parse('2026-03-02T06:59:59Z'));
    expect(zoneOffsetMs('Asia/Bangkok', instant)).toBe(7 * HOUR);
  });

  it('knows real zones and refuses made-up ones', () => {
    expect(isKnownTimeZone('Asia/Bangkok')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(() => zoneOffsetMs('Mars/Olympus_Mons', 0)).toThrow(RangeError);
  });
});

describe('local dates and times', () => {
  it('reads the local date of an instant on both sides of local midnight', () => {
    // 16:59:59 UTC is 23:59:59 in Bangkok; a second later it is the next day there, still the same day in UTC.
    expect(localDate('Asia/Bangkok', Date.parse('2026-03-01T16:59:59Z'))).toBe('2026-03-01');
    expect(localDate('Asia/Bangkok', Date.parse('2026-03-01T17:00:00Z'))).toBe('2026-03-02');
    expect(localDate('America/New_York', Date.parse('2026-03-02T03:00:00Z'))).toBe('2026-03-01');
  });

  it('counts minutes since local midnight, in half-hour zones too', () => {
    expect(localMinutesOfDay('Asia/Bangkok', Date.parse('2026-03-01T17:30:59Z'))).toBe(30);
    expect(localMinutesOfDay('Asia/Kolkata', Date.parse('2026-03-01T18:29:00Z'))).toBe(23 * 60 + 59);
    expect(localMinutesOfDay('UTC', Date.parse('2026-03-01T00:00:00Z'))).toBe(0);
  });

  it('finds the instant a local day begins, across a daylight-saving switch', () => {
    expect(startOfLocalDay('Asia/Bangkok', '2026-03-02')).toBe(Date.parse('2026-03-01T17:00:00Z'));
    // New York is on −5 h at the start of 2026-03-08 and on −4 h at the start of the next day.
    expect(startOfLocalDay('America/New_York', '2026-03-08')).toBe(Date.parse('2026-03-08T05:00:00Z'));
    expect(startOfLocalDay('America/New_York', '2026-03-09')).toBe(Date.parse('2026-03-09T04:00:00Z'));
  });

  it('adds calendar days across months and years', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });
});

describe('latestLocalDate', () => {
  const instant = Date.parse('2026-03-03T20:00:00Z');
  it('takes the zone furthest ahead, and skips unknown zones', () => {
    expect(latestLocalDate(['Pacific/Honolulu', 'Asia/Bangkok', 'Not/AZone'], instant)).toBe('2026-03-04');
    expect(latestLocalDate(['Pacific/Honolulu'], instant)).toBe('2026-03-03');
  });
  it('is null with no known zone', () => {
    expect(latestLocalDate([], instant)).toBeNull();
    expect(latestLocalDate(['Not/AZone'], instant)).toBeNull();
  });
});
