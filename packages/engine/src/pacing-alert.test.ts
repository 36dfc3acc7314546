import { describe, expect, it } from 'vitest';
import { pacingAlert, projectMonth } from './pacing.ts';
import { dayNumber } from './time.ts';

const at = (date: string, monthToDate: number, last7Days: number) => {
  const today = dayNumber(date);
  return { today, pace: projectMonth({ today, monthToDate, last7Days }) };
};

describe('pacing alerts', () => {
  it('raises "over" once the projection passes 110 % of the budget, not at 110 % itself', () => {
    // Nov 11: 13,000 over 10 whole days, then 1,000 a day for the 20 days left → 33,000 of 30,000 (110 %).
    const even = at('2026-11-11', 13_000, 7_000);
    expect(even.pace.projected).toBeCloseTo(33_000, 6);
    expect(pacingAlert(even.today, even.pace, 30_000)).toBeNull();
    const faster = at('2026-11-11', 13_001, 7_000);
    expect(pacingAlert(faster.today, faster.pace, 30_000)).toBe('over');
  });

  it('raises "under" from the middle of the month when less than 45 % is spent, never before', () => {
    // Nov 15: 14 whole days of 30, under half the month: nothing yet however little was spent.
    const early = at('2026-11-15', 1_000, 500);
    expect(pacingAlert(early.today, early.pace, 30_000)).toBeNull();
    // Nov 16: 15 whole days (half of 30): 13,400 is 44.7 % → under; 13,500 is 45 % → nothing.
    const behind = at('2026-11-16', 13_400, 6_000);
    expect(pacingAlert(behind.today, behind.pace, 30_000)).toBe('under');
    const onTrack = at('2026-11-16', 13_500, 6_000);
    expect(pacingAlert(onTrack.today, onTrack.pace, 30_000)).toBeNull();
    // A 31-day month: 15 whole days are not half of it yet; 16 are.
    expect(pacingAlert(at('2026-12-16', 100, 70).today, at('2026-12-16', 100, 70).pace, 30_000)).toBeNull();
    expect(pacingAlert(at('2026-12-17', 100, 70).today, at('2026-12-17', 100, 70).pace, 30_000)).toBe('under');
  });

  it('raises nothing without a positive budget', () => {
    const { today, pace } = at('2026-11-20', 50_000, 20_000);
    expect(pacingAlert(today, pace, 0)).toBeNull();
  });
});
