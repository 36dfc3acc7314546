import { describeActionPlan, describeCondition, describeExplanation, type RuleOperator } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { compileRule, evaluateRule, type EngineRule } from './evaluate.ts';
import { buildSnapshot } from './snapshot.ts';
import { NOW, buildAccount, buildEntity, buildRow, buildRule, buildTree, cond } from '../test/fixtures.ts';
import type { EngineDailyRow, EngineEntity } from './types.ts';

function run(
  rule: EngineRule,
  rows: EngineDailyRow[],
  entities: EngineEntity[] = buildTree(),
  explain: 'all' | 'matched' = 'all',
) {
  const snapshot = buildSnapshot({ accounts: [buildAccount()], entities, rows, now: NOW });
  return evaluateRule(compileRule(rule), snapshot, [], { explain });
}

/** Today's figures for ad-1: spend 600, 4 conversions (CPA 150), 20,000 impressions, 300 clicks (CTR 1.5 %). */
const day = buildRow(0, { spend: 600, conversions: 4, impressions: 20_000, reach: 8_000, clicks: 300 });

function matches(...items: unknown[]): boolean {
  const rule = buildRule({ conditions: { match: 'all', items } as never });
  return run(rule, [day]).decisions[0]!.matched;
}

describe('operators', () => {
  const cases: [RuleOperator, number | [number, number], boolean][] = [
    ['gt', 149, true],
    ['gt', 150, false],
    ['gte', 150, true],
    ['gte', 151, false],
    ['lt', 151, true],
    ['lt', 150, false],
    ['lte', 150, true],
    ['lte', 149, false],
    ['eq', 150, true],
    ['eq', 150.5, false],
    ['neq', 150.5, true],
    ['neq', 150, false],
    ['between', [100, 150], true],
    ['between', [150, 200], true],
    ['between', [151, 200], false],
  ];
  it.each(cases)('cpa 150 %s %j → %s', (operator, value, expected) => {
    expect(matches(cond('cpa', operator, value))).toBe(expected);
  });

  it('compares computed figures with a tolerance: a CTR of 0.1 + 0.2 equals 0.3', () => {
    const rows = [buildRow(0, { impressions: 10_000, clicks: 30 })];
    const rule = buildRule({ conditions: { match: 'all', items: [cond('ctr', 'eq', 0.3)] } });
    expect(run(rule, rows).decisions[0]!.matched).toBe(true);
  });
});

describe('undefined metrics', () => {
  it('never hold, whatever the operator, and say why', () => {
    const rows = [buildRow(0, { spend: 600 })];
    for (const operator of ['gt', 'gte', 'lt', 'lte', 'eq', 'neq'] as const) {
      const rule = buildRule({ conditions: { match: 'all', items: [cond('cpa', operator, 0)] } });
      const decision = run(rule, rows).decisions[0]!;
      expect(decision.matched).toBe(false);
      expect(decision.explanation.conditions!.items[0]).toMatchObject({ value: null, result: 'undefined' });
    }
  });
});

describe('groups', () => {
  const held = cond('spend', 'gt', 100);
  const failed = cond('spend', 'gt', 1_000);
  it('all needs every item, any needs one', () => {
    expect(matches(held, held)).toBe(true);
    expect(matches(held, failed)).toBe(false);
    expect(matches({ match: 'any', items: [failed, held] })).toBe(true);
    expect(matches({ match: 'any', items: [failed, failed] })).toBe(false);
  });

  it('nest three deep, and the trace keeps the tree with paths', () => {
    const tree = {
      match: 'any',
      items: [failed, { match: 'all', items: [held, { match: 'any', items: [failed, held] }] }],
    };
    const rule = buildRule({ conditions: tree as never });
    const decision = run(rule, [day]).decisions[0]!;
    expect(decision.matched).toBe(true);
    const root = decision.explanation.conditions!;
    expect(root).toMatchObject({ path: '', match: 'any', held: true });
    expect(root.items[0]).toMatchObject({ path: '0', result: 'failed' });
    expect(root.items[1]).toMatchObject({ path: '1', kind: 'group', held: true });
    const inner = root.items[1]!.kind === 'group' ? root.items[1]!.items[1]! : null;
    expect(inner).toMatchObject({ path: '1.1', kind: 'group', match: 'any', held: true });
  });
});

describe('metric against metric', () => {
  it('compares with the other metric × factor over the same window', () => {
    const rows = [buildRow(0, { spend: 2_500 })];
    const over = (factor: number) =>
      buildRule({ conditions: { match: 'all', items: [cond('spend', 'gt', { metric: 'daily_budget', factor })] } });
    expect(run(over(2), rows).decisions[0]!.matched).toBe(true);
    expect(run(over(3), rows).decisions[0]!.matched).toBe(false);
    expect(run(over(2), rows).decisions[0]!.explanation.conditions!.items[0]).toMatchObject({
      value: 2_500,
      compareTo: 2_000,
      against: { metric: 'daily_budget', factor: 2, value: 1_000 },
      result: 'held',
    });
  });

  it('does not hold when the other metric is undefined', () => {
    const rows = [buildRow(0, { spend: 600, conversionValue: 3_000 })];
    const rule = buildRule({
      conditions: { match: 'all', items: [cond('roas', 'gt', { metric: 'cpa', factor: 0.001 })] },
    });
    const decision = run(rule, rows).decisions[0]!;
    expect(decision.matched).toBe(false);
    expect(decision.explanation.conditions!.items[0]).toMatchObject({ compareTo: null, result: 'undefined' });
  });
});

describe('scope', () => {
  const entities = [
    ...buildTree(),
    buildEntity({ externalId: 'ad-2', name: 'Summer sale video', status: 'PAUSED' }),
    buildEntity({ externalId: 'ad-3', name: 'Summer sale image', status: 'ARCHIVED' }),
  ];
  const rows = ['ad-1', 'ad-2', 'ad-3'].map((id) => buildRow(0, { entityExternalId: id, spend: 600 }));
  const ids = (rule: EngineRule) => run(rule, rows, entities).decisions.map((decision) => decision.entity.externalId);

  it('takes the level, active and paused entities by default, and filters by status and name', () => {
    expect(ids(buildRule())).toEqual(['ad-1', 'ad-2']);
    expect(ids(buildRule({ scope: { level: 'ad', statuses: ['PAUSED'] } }))).toEqual(['ad-2']);
    expect(ids(buildRule({ scope: { level: 'ad', nameContains: 'SUMMER' } }))).toEqual(['ad-2']);
    expect(ids(buildRule({ scope: { level: 'ad', adAccountIds: ['00000000-0000-4000-8000-00000000ffff'] } }))).toEqual(
      [],
    );
    expect(ids(buildRule({ scope: { level: 'adset' } }))).toEqual(['s-1']);
  });

  it('explains only the matched entities in a run, but counts every evaluated one', () => {
    const rule = buildRule({
      conditions: { match: 'all', items: [cond('spend', 'gt', 100)] },
      scope: { level: 'ad', nameContains: 'ad 1' },
    });
    const result = run(rule, rows, entities, 'matched');
    expect(result).toMatchObject({ evaluated: 1, matched: 1 });
    const none = run(
      buildRule({ conditions: { match: 'all', items: [cond('spend', 'gt', 10_000)] } }),
      rows,
      entities,
      'matched',
    );
    expect(none).toMatchObject({ evaluated: 2, matched: 0, decisions: [] });
  });
});

describe('explanations', () => {
  it('carry the values read and render as words for the log', () => {
    const rule = buildRule({
      conditions: {
        match: 'all',
        items: [cond('cpa', 'gt', 100, 'last_7d', true), cond('ctr', 'gte', { metric: 'cpc', factor: 0.5 })],
      },
    });
    const decision = run(rule, [day]).decisions[0]!;
    expect(decision.values).toEqual([
      { metric: 'cpa', window: 'last_7d', includeToday: true, value: 150 },
      { metric: 'ctr', window: 'today', includeToday: false, value: 1.5 },
      { metric: 'cpc', window: 'today', includeToday: false, value: 2 },
    ]);
    const [first, second] = decision.explanation.conditions!.items as Parameters<typeof describeCondition>[0][];
    expect(describeCondition(first!)).toBe('CPA over the last 7 days including today is 150, > 100: held');
    expect(describeCondition(second!)).toBe('CTR (%) today is 1.50, ≥ 0.50 × CPC (1): held');
    expect(describeExplanation(decision.explanation)).toBe(
      'Matched: CPA over the last 7 days including today is 150, > 100: held; CTR (%) today is 1.50, ≥ 0.50 × CPC (1): held',
    );
    expect(describeActionPlan(decision.actions[0]!, decision.entity)).toBe('Pause ad “Ad 1”: ACTIVE → PAUSED');
  });

  it('name the failing condition when nothing matched', () => {
    const rule = buildRule({ conditions: { match: 'all', items: [cond('spend', 'gt', 100), cond('cpa', 'gt', 500)] } });
    const decision = run(rule, [day]).decisions[0]!;
    expect(describeExplanation(decision.explanation)).toBe('Not matched: CPA today is 150, > 500: did not hold');
    expect(decision.actions).toEqual([]);
  });
});
