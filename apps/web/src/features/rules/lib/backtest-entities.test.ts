import type { BacktestFiring, RuleBacktest, RuleEntityRef } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { backtestEntities } from './backtest-entities.ts';

const ref = (externalId: string, name: string, level: RuleEntityRef['level'] = 'adset'): RuleEntityRef => ({
  adAccountId: 'acc',
  level,
  externalId,
  name,
});
const BUYERS = ref('as-1', 'Bangkok buyers');
const BROAD = ref('as-2', 'Broad 18-65+');

function raise(target: RuleEntityRef, from: number, to: number, entity = target): BacktestFiring {
  return {
    entity,
    target,
    type: 'increase_budget',
    holderReason: 'self',
    change: { field: 'daily_budget', from, to, fromMinor: from * 100, toMinor: to * 100 },
  };
}

function backtest(days: [string, BacktestFiring[]][]): RuleBacktest {
  return {
    from: days[0]![0],
    to: days.at(-1)![0],
    days: days.map(([date, firings]) => ({ date, evaluated: 2, matched: firings.length, firings, budgets: {} })),
    totals: { firings: 0, byType: {}, entitiesAffected: 0, budgetChange: {} },
  };
}

describe('backtestEntities', () => {
  it("groups each object's changes: budget from its first value to its last, days, kinds", () => {
    const ad = ref('ad-9', 'Carousel', 'ad');
    const outcomes = backtestEntities(
      backtest([
        ['2026-11-01', [raise(BROAD, 1000, 1200)]],
        ['2026-11-02', []],
        [
          '2026-11-03',
          [
            raise(BROAD, 1200, 1440),
            // An ad's match raises its ad set's budget: the change belongs to the ad set.
            raise(BUYERS, 500, 600, ad),
            {
              entity: BROAD,
              target: BROAD,
              type: 'pause',
              holderReason: null,
              change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' },
            },
          ],
        ],
      ]),
    );
    expect(outcomes).toEqual([
      {
        entity: BROAD,
        changes: 3,
        byType: [
          { type: 'increase_budget', count: 2 },
          { type: 'pause', count: 1 },
        ],
        budget: { from: 1000, to: 1440 },
        status: 'PAUSED',
        firstDate: '2026-11-01',
        lastDate: '2026-11-03',
      },
      {
        entity: BUYERS,
        changes: 1,
        byType: [{ type: 'increase_budget', count: 1 }],
        budget: { from: 500, to: 600 },
        status: null,
        firstDate: '2026-11-03',
        lastDate: '2026-11-03',
      },
    ]);
  });

  it('is empty when the rule would have changed nothing', () => {
    expect(backtestEntities(backtest([['2026-11-01', []]]))).toEqual([]);
  });
});
