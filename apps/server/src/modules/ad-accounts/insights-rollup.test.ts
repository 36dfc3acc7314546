import { describe, expect, it } from 'vitest';
import type { InsightInput } from './ad-accounts.repository.ts';
import { rollUp } from './insights-rollup.ts';

const day = (id: string, date: string, spend: number, clicks = 1): InsightInput => ({
  entityExternalId: id,
  date,
  spend,
  impressions: 100,
  reach: 80,
  clicks,
  linkClicks: clicks,
  conversions: 0.5,
  conversionValue: 10,
});

describe('rollUp', () => {
  const parents: Record<string, string> = { a1: 's1', a2: 's1', a3: 's2' };

  it('sums each parent’s ads day by day', () => {
    const rows = [
      day('a1', '2026-11-01', 1.5, 2),
      day('a2', '2026-11-01', 2.5, 3),
      day('a3', '2026-11-01', 4),
      day('a1', '2026-11-02', 1),
    ];
    const result = rollUp(rows, (id) => parents[id]);
    expect(result).toHaveLength(3);
    expect(result.find((r) => r.entityExternalId === 's1' && r.date === '2026-11-01')).toMatchObject({
      spend: 4,
      clicks: 5,
      impressions: 200,
      reach: 160,
      conversions: 1,
      conversionValue: 20,
    });
    expect(result.find((r) => r.entityExternalId === 's1' && r.date === '2026-11-02')).toMatchObject({ spend: 1 });
    expect(result.find((r) => r.entityExternalId === 's2')).toMatchObject({ spend: 4 });
  });

  it('leaves out ads without a known parent and does not change its input', () => {
    const rows = [day('a1', '2026-11-01', 1), day('orphan', '2026-11-01', 9)];
    const result = rollUp(rows, (id) => parents[id]);
    expect(result.map((r) => r.entityExternalId)).toEqual(['s1']);
    expect(rows[0]?.entityExternalId).toBe('a1');
    rollUp([day('a1', '2026-11-01', 1), day('a2', '2026-11-01', 1)], (id) => parents[id]);
    expect(rows[0]?.spend).toBe(1);
  });
});
