import { describe, expect, it } from 'vitest';
import {
  dueAt,
  lastFullPeriod,
  latestDuePeriod,
  nextScheduledPeriod,
  periodContaining,
  previousPeriod,
} from './report-periods.ts';

describe('report periods', () => {
  it('reads a week as Monday to Sunday and a month as the calendar month', () => {
    expect(periodContaining('weekly', '2026-11-26')).toEqual({ start: '2026-11-23', end: '2026-11-29' });
    expect(periodContaining('weekly', '2026-11-23')).toEqual({ start: '2026-11-23', end: '2026-11-29' });
    expect(periodContaining('weekly', '2026-11-29')).toEqual({ start: '2026-11-23', end: '2026-11-29' });
    expect(periodContaining('monthly', '2026-02-14')).toEqual({ start: '2026-02-01', end: '2026-02-28' });
    expect(periodContaining('monthly', '2028-02-29')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
    expect(previousPeriod('monthly', { start: '2026-03-01', end: '2026-03-31' })).toEqual({
      start: '2026-02-01',
      end: '2026-02-28',
    });
    expect(previousPeriod('weekly', { start: '2026-01-05', end: '2026-01-11' })).toEqual({
      start: '2025-12-29',
      end: '2026-01-04',
    });
  });

  it('takes the last full period before today', () => {
    expect(lastFullPeriod('weekly', '2026-11-23')).toEqual({ start: '2026-11-16', end: '2026-11-22' });
    expect(lastFullPeriod('weekly', '2026-11-22')).toEqual({ start: '2026-11-09', end: '2026-11-15' });
    expect(lastFullPeriod('monthly', '2026-01-01')).toEqual({ start: '2025-12-01', end: '2025-12-31' });
  });

  it('is due at 08:00 local time on the day after the period, in the schedule’s zone', () => {
    const week = { start: '2026-11-16', end: '2026-11-22' };
    expect(dueAt('Asia/Bangkok', week).toISOString()).toBe('2026-11-23T01:00:00.000Z');
    expect(dueAt('UTC', week).toISOString()).toBe('2026-11-23T08:00:00.000Z');
    // New York in March: the day after the period is the first day of daylight time (UTC−4).
    expect(dueAt('America/New_York', { start: '2026-03-02', end: '2026-03-08' }).toISOString()).toBe(
      '2026-03-09T12:00:00.000Z',
    );
    expect(latestDuePeriod('weekly', 'Asia/Bangkok', new Date('2026-11-23T00:59:00Z'))).toEqual({
      start: '2026-11-09',
      end: '2026-11-15',
    });
    expect(latestDuePeriod('weekly', 'Asia/Bangkok', new Date('2026-11-23T01:00:00Z'))).toEqual(week);
  });

  it('never sends a period that came due before the schedule existed, and is late rather than skipping one', () => {
    const made = new Date('2026-11-25T05:00:00Z');
    const now = new Date('2026-11-26T05:00:00Z');
    expect(nextScheduledPeriod('weekly', 'UTC', now, { createdAt: made, sentStarts: new Set() })).toEqual({
      period: { start: '2026-11-23', end: '2026-11-29' },
      dueAt: new Date('2026-11-30T08:00:00Z'),
    });
    const earlier = new Date('2026-11-20T05:00:00Z');
    expect(nextScheduledPeriod('weekly', 'UTC', now, { createdAt: earlier, sentStarts: new Set() })).toEqual({
      period: { start: '2026-11-16', end: '2026-11-22' },
      dueAt: new Date('2026-11-23T08:00:00Z'),
    });
    expect(
      nextScheduledPeriod('weekly', 'UTC', now, { createdAt: earlier, sentStarts: new Set(['2026-11-16']) }).period,
    ).toEqual({ start: '2026-11-23', end: '2026-11-29' });
  });
});
