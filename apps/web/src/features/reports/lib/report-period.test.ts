import { describe, expect, it } from 'vitest';
import { lastFullPeriod } from './report-period.ts';

describe('lastFullPeriod', () => {
  it('covers the last full Monday–Sunday week, whatever weekday it is asked on', () => {
    // Thursday 26 November 2026.
    expect(lastFullPeriod('weekly', 'UTC', new Date('2026-11-26T10:00:00Z'))).toEqual({
      start: '2026-11-16',
      end: '2026-11-22',
    });
    // On a Monday the week just ended is the last full one; on a Sunday it is not full yet.
    expect(lastFullPeriod('weekly', 'UTC', new Date('2026-11-23T00:30:00Z'))).toEqual({
      start: '2026-11-16',
      end: '2026-11-22',
    });
    expect(lastFullPeriod('weekly', 'UTC', new Date('2026-11-22T23:30:00Z'))).toEqual({
      start: '2026-11-09',
      end: '2026-11-15',
    });
  });

  it("reads the day in the schedule's time zone", () => {
    // 20:00 UTC on Sunday is already Monday 03:00 in Bangkok.
    const now = new Date('2026-11-22T20:00:00Z');
    expect(lastFullPeriod('weekly', 'Asia/Bangkok', now)).toEqual({ start: '2026-11-16', end: '2026-11-22' });
    expect(lastFullPeriod('weekly', 'UTC', now)).toEqual({ start: '2026-11-09', end: '2026-11-15' });
    expect(lastFullPeriod('monthly', 'Asia/Bangkok', new Date('2026-11-30T18:00:00Z'))).toEqual({
      start: '2026-11-01',
      end: '2026-11-30',
    });
    expect(lastFullPeriod('weekly', 'Not/AZone', now)).toEqual({ start: '2026-11-09', end: '2026-11-15' });
  });

  it('covers the last full calendar month, across a year and in a leap February', () => {
    expect(lastFullPeriod('monthly', 'UTC', new Date('2026-11-26T10:00:00Z'))).toEqual({
      start: '2026-10-01',
      end: '2026-10-31',
    });
    expect(lastFullPeriod('monthly', 'UTC', new Date('2027-01-01T10:00:00Z'))).toEqual({
      start: '2026-12-01',
      end: '2026-12-31',
    });
    expect(lastFullPeriod('monthly', 'UTC', new Date('2028-03-15T10:00:00Z'))).toEqual({
      start: '2028-02-01',
      end: '2028-02-29',
    });
  });
});
