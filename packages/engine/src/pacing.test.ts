import { describe, expect, it } from 'vitest';
import { backtestRule } from './backtest.ts';
import { compileRule, evaluateRule } from './evaluate.ts';
import { monthOf, pacingPercent, projectMonth } from './pacing.ts';
import { buildSnapshot } from './snapshot.ts';
import { buildAccount, buildRow, buildRule, buildTree } from '../test/fixtures.ts';
import { dayNumber, isoDate, zonedInstant } from './time.ts';
import type { EngineDailyRow } from './types.ts';

describe('month pacing', () => {
  it('knows each month’s length and the day’s place in it, leap years included', () => {
    expect(monthOf(dayNumber('2026-11-22'))).toEqual({ first: dayNumber('2026-11-01'), days: 30, dayOfMonth: 22 });
    expect(monthOf(dayNumber('2028-02-29'))).toMatchObject({ days: 29, dayOfMonth: 29 });
    expect(monthOf(dayNumber('2026-12-01'))).toMatchObject({ days: 31, dayOfMonth: 1 });
  });

  it('projects month-to-date plus the last 7 days’ pace for the days left, today included', () => {
    const pace = projectMonth({ today: dayNumber('2026-11-22'), monthToDate: 21_000, last7Days: 7_000 });
    expect(pace).toEqual({ monthToDate: 21_000, dailyPace: 1_000, daysLeft: 9, projected: 30_000 });
    expect(pacingPercent(30_000, 25_000)).toBe(120);
    expect(pacingPercent(30_000, null)).toBeNull();
  });

  /** A campaign's rows on every day from `from` to `to`, spend = a function of the date. */
  function rowsBetween(from: string, to: string, spendOf: (date: string) => number): EngineDailyRow[] {
    const account = buildAccount();
    const rows: EngineDailyRow[] = [];
    for (let day = dayNumber(from); day <= dayNumber(to); day++) {
      const date = isoDate(day);
      rows.push({ ...buildRow(0, {}, account), entityExternalId: 'c-1', date, spend: spendOf(date) });
    }
    return rows;
  }

  it('reads month_spend and projected_month_spend as rule metrics, equal to an independent sum, at any date', () => {
    const account = buildAccount();
    const spendOf = (date: string) => 100 + Number(date.slice(8, 10)) * 7 + (Number(date.slice(5, 7)) % 3) * 11;
    const rows = rowsBetween('2026-09-01', '2026-12-31', spendOf);
    for (const today of ['2026-10-01', '2026-10-02', '2026-10-31', '2026-11-15', '2026-12-08', '2026-12-31']) {
      // 10:00 local time on that day.
      const now = zonedInstant(dayNumber(today), 10 * 3_600_000, account.timezone);
      const snapshot = buildSnapshot({ accounts: [account], entities: buildTree(), rows, now });
      const first = `${today.slice(0, 8)}01`;
      let monthToDate = 0;
      for (let day = dayNumber(first); day < dayNumber(today); day++) monthToDate += spendOf(isoDate(day));
      let week = 0;
      for (let back = 1; back <= 7; back++) week += spendOf(isoDate(dayNumber(today) - back));
      const { days } = monthOf(dayNumber(today));
      const expected = monthToDate + (week / 7) * (days - Number(today.slice(8, 10)) + 1);
      const rule = buildRule({
        scope: { adAccountIds: [], level: 'campaign' },
        conditions: {
          match: 'all',
          items: [
            { metric: 'month_spend', operator: 'gte', value: 0, window: 'last_7d' },
            { metric: 'projected_month_spend', operator: 'gt', value: expected - 0.01, window: 'last_7d' },
          ],
        },
        actions: [{ type: 'notify' }],
      });
      const decision = evaluateRule(compileRule(rule), snapshot, [], { explain: 'all' }).decisions[0]!;
      const [spent, projected] = decision.explanation.conditions!.items as { value: number }[];
      expect(spent!.value, today).toBeCloseTo(monthToDate, 6);
      expect(projected!.value, today).toBeCloseTo(expected, 6);
      expect(decision.matched).toBe(true);
    }
  });

  it('is backtested: the projection of each replayed day uses only that day’s past', () => {
    const account = buildAccount();
    // 1,000 a day until the 10th, then 3,000 a day: the projection jumps a week later.
    const rows = rowsBetween('2026-10-20', '2026-11-21', (date) => (date >= '2026-11-10' ? 3_000 : 1_000));
    const rule = buildRule({
      scope: { adAccountIds: [], level: 'campaign' },
      conditions: {
        match: 'all',
        items: [{ metric: 'projected_month_spend', operator: 'gt', value: 60_000, window: 'last_7d' }],
      },
      actions: [{ type: 'notify' }],
      safeguards: { cooldownHours: 0, maxActionsPerDay: 100, minSpend: 0, minImpressions: 0, settleHours: 0 },
    });
    const now = zonedInstant(dayNumber('2026-11-22'), 10 * 3_600_000, account.timezone);
    const replay = backtestRule(rule, { accounts: [account], entities: buildTree(), rows, now, days: 14 });
    const matchedDays = replay.days.filter((day) => day.matched > 0).map((day) => day.date);
    const expected = replay.days
      .map((day) => day.date)
      .filter((date) => {
        // A replayed day is its own "today": the projection reads the whole days before it.
        const today = dayNumber(date);
        const { first, days, dayOfMonth } = monthOf(today);
        let mtd = 0;
        for (let d = first; d < today; d++) mtd += isoDate(d) >= '2026-11-10' ? 3_000 : 1_000;
        let week = 0;
        for (let b = 1; b <= 7; b++) week += isoDate(today - b) >= '2026-11-10' ? 3_000 : 1_000;
        return mtd + (week / 7) * (days - dayOfMonth + 1) > 60_000;
      });
    expect(matchedDays).toEqual(expected);
    expect(matchedDays.length).toBeGreaterThan(0);
    expect(matchedDays.length).toBeLessThan(14);
  });
});
