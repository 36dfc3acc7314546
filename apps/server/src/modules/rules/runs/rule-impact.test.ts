import { addDays } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import {
  actionImpact,
  dailyLine,
  dateOfDay,
  dayNumber,
  impactWindow,
  lastSettledDay,
  ruleTotals,
  spendAvoided,
  spendWeighted,
  sumDays,
  type DayFigures,
  type ImpactActionInput,
} from './rule-impact.ts';

const ZONE = 'Asia/Bangkok';
// 10:00 in Bangkok on 1 March: the action's local day is 2026-03-01.
const APPLIED = new Date('2026-03-01T03:00:00Z');
const clockAt = (iso: string) => ({ now: new Date(iso), revisedDays: 14 });
const SETTLED = clockAt('2026-04-15T03:00:00Z');

/** A flat history: every day from 1 Feb to 31 Mar spends `spend`, with `results` and `value`. */
function history(spend: number, results: number, value: number, after?: DayFigures): Map<number, DayFigures> {
  const days = new Map<number, DayFigures>();
  for (let date = '2026-02-01'; date <= '2026-03-31'; date = addDays(date, 1)) {
    days.set(dayNumber(date), date > '2026-03-01' && after ? after : { spend, results, value });
  }
  return days;
}

function action(overrides: Partial<ImpactActionInput> = {}): ImpactActionInput {
  return {
    id: 'a1',
    type: 'increase_budget',
    entity: { adAccountId: 'acc', level: 'adset', externalId: 'as1', name: 'Ad set' },
    currency: 'THB',
    timeZone: ZONE,
    appliedAt: APPLIED,
    endedAt: null,
    revertedAt: null,
    budget: { from: 500, to: 600 },
    ...overrides,
  };
}

describe('rule impact arithmetic', () => {
  it('draws every day of the line, CPA and ROAS null where undefined', () => {
    const entity = new Map([[dayNumber('2026-03-02'), { spend: 20, results: 1, value: 20 }]]);
    const other = new Map([
      [dayNumber('2026-03-02'), { spend: 10, results: 2, value: 40 }],
      [dayNumber('2026-03-09'), { spend: 99, results: 1, value: 0 }],
    ]);
    const line = dailyLine([entity, other], '2026-03-01', '2026-03-02');
    expect(line).toEqual([
      { date: '2026-03-01', spend: 0, cpa: null, roas: null },
      { date: '2026-03-02', spend: 30, cpa: 10, roas: 2 },
    ]);
  });

  it('sums whole local days, a day without a row spending nothing', () => {
    const days = new Map([
      [dayNumber('2026-03-01'), { spend: 10, results: 1, value: 30 }],
      [dayNumber('2026-03-03'), { spend: 5, results: 0, value: 0 }],
    ]);
    expect(sumDays(days, dayNumber('2026-03-01'), dayNumber('2026-03-03'))).toEqual({
      spend: 15,
      results: 1,
      value: 30,
    });
    expect(dateOfDay(dayNumber('2026-03-03'))).toBe('2026-03-03');
  });

  it('compares N days before the action day with N days after it, in the account zone', () => {
    const days = history(100, 4, 300, { spend: 200, results: 5, value: 800 });
    const window = impactWindow(action(), days, 7, SETTLED);
    expect(window.before).toEqual({ spend: 700, results: 28, cpa: 25, roas: 3 });
    expect(window.after).toEqual({ spend: 1400, results: 35, cpa: 40, roas: 4 });
    expect(window.afterDays).toBe(7);
  });

  it('leaves CPA null without results and ROAS null without spend', () => {
    const window = impactWindow(action(), history(0, 0, 0), 3, SETTLED);
    expect(window.before).toEqual({ spend: 0, results: 0, cpa: null, roas: null });
    const noResults = impactWindow(action(), history(50, 0, 0), 3, SETTLED);
    expect(noResults.before).toMatchObject({ cpa: null, roas: 0 });
  });

  it('shows an after only once its last day is older than the days a sync still rewrites', () => {
    expect(lastSettledDay(ZONE, clockAt('2026-03-19T03:00:00Z'))).toBe('2026-03-04');
    const days = history(100, 4, 300);
    // The 3-day after ends on 4 March: settled on the 19th (local), not on the 18th.
    expect(impactWindow(action(), days, 3, clockAt('2026-03-18T03:00:00Z')).after).toBeNull();
    expect(impactWindow(action(), days, 3, clockAt('2026-03-19T03:00:00Z')).after).not.toBeNull();
    // 23:30 UTC on the 18th is already the 19th in Bangkok.
    expect(impactWindow(action(), days, 3, clockAt('2026-03-18T23:30:00Z')).after).not.toBeNull();
    expect(impactWindow(action(), days, 14, clockAt('2026-03-19T03:00:00Z')).after).toBeNull();
  });

  it('ends the after period the day before a revert', () => {
    const days = history(100, 4, 300, { spend: 200, results: 5, value: 800 });
    const reverted = action({ endedAt: new Date('2026-03-05T03:00:00Z') });
    const week = impactWindow(reverted, days, 7, SETTLED);
    expect(week.afterDays).toBe(3);
    expect(week.after).toMatchObject({ spend: 600, results: 15 });
    // Reverted the next day: no whole day after the action.
    const next = impactWindow(action({ endedAt: new Date('2026-03-02T01:00:00Z') }), days, 7, SETTLED);
    expect(next.afterDays).toBe(0);
    expect(next.after).toBeNull();
  });

  it("estimates a pause's spend avoided from the week before × the days paused", () => {
    const days = history(70, 1, 0);
    const ongoing = spendAvoided(action({ type: 'pause' }), days, new Date('2026-03-04T15:00:00Z'));
    expect(ongoing).toEqual({ estimate: true, amount: 70 * 3.5, dailySpend: 70, days: 3.5, ongoing: true });
    const resumed = spendAvoided(
      action({ type: 'pause', endedAt: new Date('2026-03-03T03:00:00Z') }),
      days,
      new Date('2026-03-20T00:00:00Z'),
    );
    expect(resumed).toMatchObject({ amount: 140, days: 2, ongoing: false });
  });

  it('weights a ratio by spend, skipping entities where it is undefined', () => {
    expect(spendWeighted([])).toBeNull();
    expect(spendWeighted([{ spend: 100, ratio: null }])).toBeNull();
    expect(
      spendWeighted([
        { spend: 100, ratio: 10 },
        { spend: 300, ratio: 20 },
        { spend: 50, ratio: null },
      ]),
    ).toBe(17.5);
  });

  it("totals a rule's actions: kinds, budget moved, spend avoided, spend-weighted CPA and ROAS", () => {
    const a = actionImpact(action(), history(100, 4, 300, { spend: 200, results: 5, value: 800 }), SETTLED);
    const b = actionImpact(
      action({ id: 'a2', budget: { from: 400, to: 300 }, type: 'decrease_budget' }),
      history(300, 10, 600, { spend: 100, results: 5, value: 400 }),
      SETTLED,
    );
    const pause = actionImpact(action({ id: 'a3', type: 'pause', budget: null }), history(70, 1, 0), SETTLED);
    const totals = ruleTotals([a, b, pause]);
    expect(totals).toMatchObject({
      actionsApplied: 3,
      byType: { increase_budget: 1, decrease_budget: 1, pause: 1 },
      currency: 'THB',
      budgetRaised: 100,
      budgetLowered: 100,
      compared: 2,
    });
    expect(totals.spendAvoided).toBeCloseTo(pause.impact.spendAvoided!.amount);
    // Before: a spends 700 at CPA 25, b 2100 at CPA 30 → (700×25 + 2100×30) / 2800.
    expect(totals.before.cpa).toBeCloseTo((700 * 25 + 2100 * 30) / 2800);
    expect(totals.before.roas).toBeCloseTo((2100 + 4200) / 2800);
    // After: a 1400 at 40, b 700 at 20.
    expect(totals.after.cpa).toBeCloseTo((1400 * 40 + 700 * 20) / 2100);
    expect(totals.after.roas).toBeCloseTo((5600 + 2800) / 2100);
  });

  it('leaves money totals and ratios null across currencies, and unsettled changes out of the comparison', () => {
    const thb = actionImpact(action(), history(100, 4, 300), SETTLED);
    const usd = actionImpact(action({ id: 'u', currency: 'USD' }), history(100, 4, 300), SETTLED);
    expect(ruleTotals([thb, usd])).toMatchObject({
      currency: null,
      budgetRaised: null,
      spendAvoided: null,
      before: { cpa: null, roas: null },
    });
    const early = actionImpact(action(), history(100, 4, 300), clockAt('2026-03-05T03:00:00Z'));
    expect(early.impact.windows.every((window) => window.after === null)).toBe(true);
    expect(ruleTotals([early])).toMatchObject({ compared: 0, after: { cpa: null, roas: null } });
  });
});
