import { describe, expect, it } from 'vitest';
import { backtestRule } from './backtest.ts';
import { NEW_YORK, NOW, buildAccount, buildRow, buildRule, buildTree, cond } from '../test/fixtures.ts';

/** Ten days of an ad set returning ฿5 per ฿1 spent, and of an ad that spends without converting from 3 days ago. */
const rows = Array.from({ length: 10 }, (_, ago) => [
  buildRow(ago, { entityExternalId: 's-1', spend: 100, conversionValue: 500 }),
  buildRow(ago, { entityExternalId: 'ad-1', spend: 300, conversions: ago > 3 ? 3 : 0 }),
]).flat();

const scale = (cooldownHours: number) =>
  buildRule({
    scope: { level: 'adset' },
    conditions: { match: 'all', items: [cond('roas', 'gt', 4)] },
    actions: [{ type: 'increase_budget', by: 20, unit: 'percent', ceiling: 1_500 }],
    safeguards: { cooldownHours },
  });

const input = { accounts: [buildAccount()], entities: buildTree(), rows, now: NOW };

describe('backtest', () => {
  it('replays day by day, carrying its own budget changes forward up to the ceiling', () => {
    const result = backtestRule(scale(24), { ...input, days: 5 });
    expect(result.from).toBe('2026-11-17');
    expect(result.to).toBe('2026-11-21');
    expect(result.days.map((day) => day.firings.map((firing) => firing.change))).toEqual([
      [{ field: 'daily_budget', from: 1_000, to: 1_200, fromMinor: 100_000, toMinor: 120_000 }],
      [{ field: 'daily_budget', from: 1_200, to: 1_440, fromMinor: 120_000, toMinor: 144_000 }],
      [{ field: 'daily_budget', from: 1_440, to: 1_500, fromMinor: 144_000, toMinor: 150_000 }],
      [],
      [],
    ]);
    expect(result.days.map((day) => day.budgets)).toEqual([
      { THB: 1_200 },
      { THB: 1_440 },
      { THB: 1_500 },
      { THB: 1_500 },
      { THB: 1_500 },
    ]);
    expect(result.days.map((day) => [day.evaluated, day.matched])).toEqual(Array(5).fill([1, 1]));
    expect(result.totals).toEqual({
      firings: 3,
      byType: { increase_budget: 3 },
      entitiesAffected: 1,
      budgetChange: { THB: 500 },
    });
  });

  it('respects the cooldown between replayed days', () => {
    const result = backtestRule(scale(48), { ...input, days: 5 });
    expect(result.days.map((day) => day.firings.length)).toEqual([1, 0, 1, 0, 1]);
  });

  it('pauses once: the replayed pause holds on the following days', () => {
    const stopLoss = buildRule({
      conditions: { match: 'all', items: [cond('spend', 'gt', 250), cond('conversions', 'eq', 0)] },
    });
    const result = backtestRule(stopLoss, { ...input, days: 6 });
    expect(result.days.map((day) => day.firings.map((firing) => firing.change))).toEqual([
      [],
      [],
      [],
      [{ field: 'status', from: 'ACTIVE', to: 'PAUSED' }],
      [],
      [],
    ]);
    expect(result.days[3]).toMatchObject({ date: '2026-11-19', matched: 1 });
    expect(result.days[4]).toMatchObject({ matched: 1, firings: [] });
    expect(input.entities[2]!.status).toBe('ACTIVE');
  });

  it('replays each account on its own local days', () => {
    const newYork = buildAccount({ id: NEW_YORK, timezone: 'America/New_York', currency: 'USD' });
    const entities = buildTree().map((entity) => ({ ...entity, adAccountId: NEW_YORK }));
    const nyRows = rows.map((row) => ({ ...row, adAccountId: NEW_YORK }));
    const result = backtestRule(scale(24), { accounts: [newYork], entities, rows: nyRows, now: NOW, days: 2 });
    // At NOW it is still the 21st in New York: the last whole day is the 20th.
    expect(result.to).toBe('2026-11-20');
    expect(result.totals.budgetChange).toEqual({ USD: 440 });
  });

  it('names the days before today (UTC) when no account is in scope, with nothing evaluated', () => {
    const result = backtestRule(scale(24), { accounts: [], entities: [], rows: [], now: NOW, days: 3 });
    expect(result.days.map((day) => day.date)).toEqual(['2026-11-19', '2026-11-20', '2026-11-21']);
    expect(result).toMatchObject({ from: '2026-11-19', to: '2026-11-21', totals: { firings: 0 } });
    expect(result.days.every((day) => day.evaluated === 0)).toBe(true);
  });
});
