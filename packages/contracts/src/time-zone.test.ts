import { describe, expect, it } from 'vitest';
import { isKnownTimeZone, wallClockMs, zoneOffsetMs } from './time-zone.ts';

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
