import { describe, expect, it } from 'vitest';
import { findAnomalies, type AnomalyDay } from './anomaly.ts';

const day = (spend: number, impressions: number, conversions: number): AnomalyDay => ({
  spend,
  impressions,
  conversions,
});
const baseline = [day(1_000, 100_000, 20), day(1_200, 120_000, 24), day(800, 80_000, 16)];

describe('anomaly watch', () => {
  it('takes the same-weekday mean at the same time of day and flags spend twice of it (medium)', () => {
    // At noon the baseline's spend is 1,000 × 0.5 = 500: 1,000 is × 2.0, a jump; 990 is not.
    const spike = findAnomalies({
      today: day(1_000, 50_000, 10),
      baselineDays: baseline,
      dayShare: 0.5,
      sensitivity: 'medium',
    });
    expect(spike.map((f) => [f.metric, f.direction])).toEqual([
      ['spend', 'up'],
      ['cpm', 'up'],
      ['cpa', 'up'],
    ]);
    expect(spike[0]).toMatchObject({ current: 1_000, baseline: 500 });
    const near = findAnomalies({
      today: day(990, 99_000, 15),
      baselineDays: baseline,
      dayShare: 0.5,
      sensitivity: 'medium',
    });
    expect(near).toEqual([]);
  });

  it('flags drops, follows the sensitivity, and judges nothing early in the day or when off', () => {
    const drop = { today: day(200, 20_000, 4), baselineDays: baseline, dayShare: 0.5 };
    expect(findAnomalies({ ...drop, sensitivity: 'medium' }).map((f) => `${f.metric}:${f.direction}`)).toEqual([
      'spend:down',
      'results:down',
    ]);
    expect(findAnomalies({ ...drop, sensitivity: 'low' })).toEqual([]);
    expect(findAnomalies({ ...drop, sensitivity: 'off' })).toEqual([]);
    expect(findAnomalies({ ...drop, dayShare: 0.2, sensitivity: 'high' })).toEqual([]);
  });

  it('needs two baseline days with delivery, and enough results to judge results and CPA', () => {
    const today = day(5_000, 500_000, 0);
    expect(
      findAnomalies({ today, baselineDays: [baseline[0], undefined, day(0, 0, 0)], dayShare: 1, sensitivity: 'high' }),
    ).toEqual([]);
    const few = [day(1_000, 100_000, 1), day(1_000, 100_000, 2)];
    expect(
      findAnomalies({ today, baselineDays: few, dayShare: 1, sensitivity: 'medium' }).map((f) => f.metric),
    ).toEqual(['spend']);
  });
});
