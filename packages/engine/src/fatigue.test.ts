import { describe, expect, it } from 'vitest';
import { compileRule, evaluateRule } from './evaluate.ts';
import { adFatigue, FATIGUE_THRESHOLD, type FatigueDay } from './fatigue.ts';
import { buildSnapshot } from './snapshot.ts';
import { NOW, buildAccount, buildRow, buildRule, buildTree } from '../test/fixtures.ts';

/** An ad's days from `age` days ago to yesterday; `tire` (0…1) moves frequency, CTR and CPM as a creative wears. */
function lifeOf(age: number, tire: number, base = { impressions: 10_000, ctr: 2, cpm: 100 }): FatigueDay[] {
  const days: FatigueDay[] = [];
  for (let ago = age; ago >= 1; ago--) {
    const worn = tire * ((age - ago) / Math.max(1, age - 1));
    const impressions = base.impressions;
    days.push({
      ago,
      impressions,
      clicks: Math.round((impressions * base.ctr * (1 - 0.6 * worn)) / 100),
      spend: (impressions / 1000) * base.cpm * (1 + 0.8 * worn),
      reach: Math.round(impressions / (1.1 + 4 * worn)),
    });
  }
  return days;
}

describe('creative fatigue score', () => {
  it('scores a worn ad above the threshold with its reasons, largest first, and a fresh one below', () => {
    const worn = adFatigue(lifeOf(21, 1));
    expect(worn.score).toBeGreaterThanOrEqual(FATIGUE_THRESHOLD);
    expect(worn.reasons.map((reason) => reason.code)).toEqual(['frequency_high', 'ctr_down', 'cpm_up']);
    const ctr = worn.reasons.find((reason) => reason.code === 'ctr_down')!;
    const first = lifeOf(21, 1).slice(0, 3);
    const firstCtr =
      (first.reduce((sum, day) => sum + day.clicks, 0) / first.reduce((sum, day) => sum + day.impressions, 0)) * 100;
    expect(ctr.params).toMatchObject({ from: Math.round(firstCtr * 100) / 100, threshold: 20 });
    const fresh = adFatigue(lifeOf(21, 0));
    expect(fresh.score).toBeLessThan(FATIGUE_THRESHOLD);
    expect(fresh.reasons.map((reason) => reason.code)).not.toContain('ctr_down');
  });

  it('reads the ad against its own first days: the same CTR is fatigue for one ad and not for another', () => {
    // Both end at a CTR of 1 %; one started at 2 %, the other always ran at 1 %.
    const fell = adFatigue(lifeOf(21, 1, { impressions: 10_000, ctr: 2.5, cpm: 100 }));
    const flat = adFatigue(lifeOf(21, 0, { impressions: 10_000, ctr: 1, cpm: 100 }));
    expect(fell.score).toBeGreaterThan(flat.score + 30);
  });

  it('holds a retargeting audience to higher thresholds than a cold one', () => {
    const days = lifeOf(21, 0.6);
    const cold = adFatigue(days, 'cold');
    const retargeting = adFatigue(days, 'retargeting');
    expect(cold.score).toBeGreaterThan(retargeting.score);
    expect(retargeting.audience).toBe('retargeting');
    expect(retargeting.reasons.find((reason) => reason.code === 'frequency_high')?.params).toMatchObject({
      threshold: 6,
    });
  });

  it('gives no score to an ad too new for a baseline, or with too few impressions', () => {
    expect(adFatigue(lifeOf(5, 1))).toMatchObject({ score: 0, reasons: [{ code: 'too_new' }] });
    expect(adFatigue(lifeOf(21, 1, { impressions: 200, ctr: 2, cpm: 100 }))).toMatchObject({
      score: 0,
      reasons: [{ code: 'not_enough_data', params: { needed: 1000 } }],
    });
  });

  it('ignores today and the order of the rows', () => {
    const days = lifeOf(21, 1);
    const shuffled = [...days].reverse();
    const withToday = [...days, { ago: 0, impressions: 50_000, clicks: 5_000, spend: 1, reach: 50_000 }];
    expect(adFatigue(shuffled)).toEqual(adFatigue(days));
    expect(adFatigue(withToday)).toEqual(adFatigue(days));
  });

  it('is the same score as a rule condition (snapshot) and as the pure function, for any days', () => {
    for (let trial = 0; trial < 30; trial++) {
      const age = 4 + (trial % 25);
      const days = lifeOf(age, (trial % 7) / 6, { impressions: 300 + trial * 400, ctr: 1 + (trial % 3), cpm: 80 });
      const rows = days.map((day) =>
        buildRow(day.ago, { impressions: day.impressions, clicks: day.clicks, spend: day.spend, reach: day.reach }),
      );
      const snapshot = buildSnapshot({ accounts: [buildAccount()], entities: buildTree(), rows, now: NOW });
      const rule = buildRule({
        conditions: {
          match: 'all',
          items: [{ metric: 'fatigue', operator: 'gte', value: FATIGUE_THRESHOLD, window: 'last_7d' }],
        },
      });
      const decision = evaluateRule(compileRule(rule), snapshot, [], { explain: 'all' }).decisions[0]!;
      const expected = adFatigue(days).score;
      expect(decision.explanation.conditions!.items[0], `trial ${trial}`).toMatchObject({ value: expected });
      expect(decision.matched).toBe(expected >= FATIGUE_THRESHOLD);
    }
  });
});
