import { describeSkip } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { compileRule, evaluateRule, type EngineRule } from './evaluate.ts';
import { buildSnapshot } from './snapshot.ts';
import { BANGKOK, NOW, buildAccount, buildEntity, buildRow, buildRule, buildTree, cond } from '../test/fixtures.ts';
import type { EngineDailyRow, EngineEntity, LedgerEntry, OpposingEntry } from './types.ts';

const HOUR = 3_600_000;
const spent = [buildRow(0, { spend: 600, impressions: 5_000 })];

function evaluate(
  rule: EngineRule,
  {
    ledger = [],
    entities = buildTree(),
    rows = spent,
    now = NOW,
  }: { ledger?: LedgerEntry[]; entities?: EngineEntity[]; rows?: EngineDailyRow[]; now?: number } = {},
) {
  const snapshot = buildSnapshot({ accounts: [buildAccount()], entities, rows, now });
  return evaluateRule(compileRule(rule), snapshot, ledger, { explain: 'all' });
}

const entry = (rule: EngineRule, hoursAgo: number, overrides: Partial<LedgerEntry> = {}): LedgerEntry => ({
  ruleId: rule.id,
  adAccountId: BANGKOK,
  targetExternalId: 'ad-1',
  type: 'pause',
  at: NOW - hoursAgo * HOUR,
  ...overrides,
});

const firstAction = (result: ReturnType<typeof evaluate>) => result.decisions[0]!.actions[0]!;

describe('cooldown per entity × action', () => {
  const rule = buildRule({ safeguards: { cooldownHours: 24 } });

  it('skips an action this rule took on this entity less than the cooldown ago', () => {
    const action = firstAction(evaluate(rule, { ledger: [entry(rule, 23)] }));
    expect(action).toMatchObject({ outcome: 'skipped', skip: { code: 'cooldown', params: { hours: 24 } } });
    expect(action.skip!.params.until).toBe(new Date(NOW + HOUR).toISOString());
    expect(describeSkip(action.skip!)).toBe(`in its 24-hour cooldown until ${new Date(NOW + HOUR).toISOString()}`);
  });

  it('lets it through once the cooldown is over, or for another action, entity or rule', () => {
    expect(firstAction(evaluate(rule, { ledger: [entry(rule, 24)] })).outcome).toBe('planned');
    expect(firstAction(evaluate(rule, { ledger: [entry(rule, 1, { type: 'notify' })] })).outcome).toBe('planned');
    expect(firstAction(evaluate(rule, { ledger: [entry(rule, 1, { targetExternalId: 'ad-2' })] })).outcome).toBe(
      'planned',
    );
    expect(firstAction(evaluate(rule, { ledger: [entry(rule, 1, { ruleId: 'another' })] })).outcome).toBe('planned');
  });
});

describe('max actions per rule per day', () => {
  const rule = buildRule({ safeguards: { maxActionsPerDay: 2 } });
  const ads = ['ad-1', 'ad-2', 'ad-3'];
  const entities = ads.map((id) => buildEntity({ externalId: id, name: id }));
  const rows = ads.map((id) => buildRow(0, { entityExternalId: id, spend: 600 }));

  it('plans up to the limit within one run, then skips', () => {
    const outcomes = evaluate(rule, { entities, rows }).decisions.map((decision) => decision.actions[0]!.outcome);
    expect(outcomes).toEqual(['planned', 'planned', 'skipped']);
  });

  it("counts the rule's actions of the last 24 hours", () => {
    const ledger = [entry(rule, 23, { targetExternalId: 'other' }), entry(rule, 25, { targetExternalId: 'older' })];
    const actions = evaluate(rule, { entities, rows, ledger }).decisions.map((decision) => decision.actions[0]!);
    expect(actions.map((action) => action.outcome)).toEqual(['planned', 'skipped', 'skipped']);
    expect(actions[1]!.skip).toEqual({ code: 'max_actions_per_day', params: { limit: 2, count: 2 } });
  });
});

describe('minimum data before judging', () => {
  it('does not judge an entity under the minimum spend, measured on the widest window of the rule', () => {
    const rule = buildRule({
      conditions: { match: 'all', items: [cond('spend', 'gt', 100), cond('cpa', 'gt', 0, 'last_7d', true)] },
      safeguards: { minSpend: 1_000 },
    });
    const rows = [buildRow(0, { spend: 600 }), buildRow(3, { spend: 300 })];
    const decision = evaluate(rule, { rows }).decisions[0]!;
    expect(decision.explanation).toMatchObject({
      decision: 'not_judged',
      notJudged: { code: 'min_spend_not_reached', params: { spend: 900, minimum: 1_000 } },
      conditions: null,
    });
    expect(decision.actions).toEqual([]);
    expect(evaluate(rule, { rows: [...rows, buildRow(6, { spend: 100, conversions: 1 })] }).decisions[0]!.matched).toBe(
      true,
    );
  });

  it('does not judge an entity under the minimum impressions', () => {
    const rule = buildRule({ safeguards: { minImpressions: 10_000 } });
    expect(evaluate(rule).decisions[0]!.explanation.notJudged).toEqual({
      code: 'min_impressions_not_reached',
      params: { impressions: 5_000, minimum: 10_000 },
    });
  });
});

describe('settle hours', () => {
  // NOW is 10:00 in Bangkok.
  it("ignores today's figures until the local day is old enough", () => {
    const rule = buildRule({ safeguards: { settleHours: 11 } });
    const decision = evaluate(rule).decisions[0]!;
    expect(decision.matched).toBe(false);
    expect(decision.explanation.settling).toBe(true);
    expect(decision.explanation.conditions!.items[0]).toMatchObject({ result: 'settling', value: null });
    expect(evaluate(buildRule({ safeguards: { settleHours: 10 } })).decisions[0]!.matched).toBe(true);
  });

  it('reads the last whole days instead of a window that includes today', () => {
    const conditions = { match: 'all' as const, items: [cond('spend', 'gt', 650, 'last_3d', true)] };
    const settling = buildRule({ conditions, safeguards: { settleHours: 12 } });
    const settled = buildRule({ conditions, safeguards: { settleHours: 0 } });
    const rows = [buildRow(0, { spend: 600 }), buildRow(1, { spend: 100 })];
    expect(evaluate(settled, { rows }).decisions[0]!.matched).toBe(true);
    expect(evaluate(settling, { rows }).decisions[0]!.matched).toBe(false);
    expect(evaluate(settling, { rows: [...rows, buildRow(3, { spend: 600 })] }).decisions[0]!.matched).toBe(true);
  });
});

describe("Meta's budget changes per hour", () => {
  const rule = buildRule({
    scope: { level: 'adset' },
    actions: [{ type: 'increase_budget', by: 10, unit: 'percent' }],
    safeguards: { cooldownHours: 0 },
  });
  const rows = [buildRow(0, { entityExternalId: 's-1', spend: 600 })];
  const change = (minutesAgo: number, ruleId = 'another'): LedgerEntry => ({
    ruleId,
    adAccountId: BANGKOK,
    targetExternalId: 's-1',
    type: 'set_budget',
    at: NOW - minutesAgo * 60_000,
  });

  it('allows a fourth change within the hour and refuses a fifth, whichever rule made them', () => {
    const three = [change(10), change(20), change(30, rule.id)];
    expect(firstAction(evaluate(rule, { rows, ledger: three })).outcome).toBe('planned');
    const four = [...three, change(59)];
    expect(firstAction(evaluate(rule, { rows, ledger: four })).skip).toEqual({
      code: 'budget_change_limit',
      params: { limit: 4, count: 4, until: new Date(NOW + 60_000).toISOString() },
    });
    const oneOld = [...three, change(61)];
    expect(firstAction(evaluate(rule, { rows, ledger: oneOld })).outcome).toBe('planned');
  });
});

describe('opposite actions of another rule (run-time conflicts)', () => {
  const rule = buildRule({ actions: [{ type: 'pause' }] });
  const opposing = (hoursAgo: number, overrides: Partial<OpposingEntry> = {}): OpposingEntry => ({
    ...entry(rule, hoursAgo, { ruleId: 'other', type: 'resume' }),
    ruleName: 'Revive',
    cooldownHours: 12,
    ...overrides,
  });
  const run = (entries: OpposingEntry[]) => {
    const snapshot = buildSnapshot({ accounts: [buildAccount()], entities: buildTree(), rows: spent, now: NOW });
    return evaluateRule(compileRule(rule), snapshot, [], { explain: 'all', opposing: entries }).decisions[0]!
      .actions[0]!;
  };

  it('skips the opposite of what another rule did within that rule’s cooldown, naming it', () => {
    const action = run([opposing(11)]);
    expect(action).toMatchObject({
      outcome: 'skipped',
      skip: { code: 'conflicting_rule', params: { ruleId: 'other', ruleName: 'Revive', action: 'resume', hours: 12 } },
    });
    expect(action.skip!.params.until).toBe(new Date(NOW + HOUR).toISOString());
    expect(describeSkip(action.skip!)).toContain('"Revive"');
  });

  it('lets it through after that cooldown, for the same action, another entity, or its own rule', () => {
    expect(run([opposing(12)]).outcome).toBe('planned');
    expect(run([opposing(1, { type: 'pause' })]).outcome).toBe('planned');
    expect(run([opposing(1, { targetExternalId: 'ad-2' })]).outcome).toBe('planned');
    expect(run([opposing(1, { ruleId: rule.id })]).outcome).toBe('planned');
    expect(run([opposing(1, { cooldownHours: 0 })]).outcome).toBe('planned');
  });
});
