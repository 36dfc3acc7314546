import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  RULE_MESSAGES as M,
  RULE_TEMPLATES,
  backtestRequestSchema,
  countConditions,
  createRuleRequestSchema,
  ruleBacktestSchema,
  rulePreviewSchema,
  ruleRunSchema,
  ruleSchema,
  ruleTemplateSchema,
  updateRuleRequestSchema,
  type CreateRuleRequest,
} from './index.ts';

const condition = { metric: 'cpa', operator: 'gt', value: 500, window: 'last_7d' } as const;

function buildRule(overrides: Record<string, unknown> = {}): CreateRuleRequest {
  return {
    name: 'Stop loss',
    scope: { adAccountIds: [], level: 'ad' },
    conditions: { match: 'all', items: [condition] },
    actions: [{ type: 'pause' }],
    schedule: { everyMinutes: 15 },
    ...overrides,
  } as CreateRuleRequest;
}

/** The field → message pairs a body is refused with. */
function refusals(body: unknown): Record<string, string> {
  const result = createRuleRequestSchema.safeParse(body);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

const withConditions = (...items: unknown[]) => buildRule({ conditions: { match: 'all', items } });

describe('rule format', () => {
  it('accepts the format of the issue and fills in the defaults', () => {
    const rule = createRuleRequestSchema.parse(buildRule());
    expect(rule).toMatchObject({
      description: '',
      isActive: false,
      scope: { adAccountIds: [] },
      safeguards: { cooldownHours: 24, maxActionsPerDay: 20, minSpend: 0, minImpressions: 0, settleHours: 0 },
    });
    expect(rule.conditions.items[0]).toMatchObject({ includeToday: false });
  });

  it('accepts every operator, window and value form', () => {
    const rule = withConditions(
      { metric: 'spend', operator: 'between', value: [100, 200], window: 'today' },
      { metric: 'spend', operator: 'gt', value: { metric: 'daily_budget', factor: 2 }, window: 'yesterday' },
      { metric: 'roas', operator: 'gte', value: { metric: 'cpa' }, window: 'last_30d', includeToday: true },
    );
    const parsed = createRuleRequestSchema.parse(rule);
    expect(parsed.conditions.items[2]).toMatchObject({ value: { metric: 'cpa', factor: 1 } });
  });

  it('refuses an unknown metric or window, with a message on that field', () => {
    expect(refusals(withConditions({ ...condition, metric: 'cost' }))).toEqual({
      'conditions.items.0.metric': M.metricUnknown,
    });
    expect(refusals(withConditions({ ...condition, window: 'last_2d' }))).toEqual({
      'conditions.items.0.window': M.windowUnknown,
    });
    expect(refusals(withConditions({ ...condition, value: { metric: 'cost', factor: 2 } }))).toEqual({
      'conditions.items.0.value': M.metricUnknown,
    });
  });

  it('refuses between without two ordered numbers, and a range with another operator', () => {
    const between = { ...condition, operator: 'between' };
    expect(refusals(withConditions({ ...between, value: 5 }))).toEqual({
      'conditions.items.0.value': M.betweenNeedsRange,
    });
    expect(refusals(withConditions({ ...between, value: [5] }))).toEqual({
      'conditions.items.0.value': M.betweenNeedsRange,
    });
    expect(refusals(withConditions({ ...between, value: [9, 1] }))).toEqual({
      'conditions.items.0.value': M.rangeUnordered,
    });
    expect(refusals(withConditions({ ...condition, value: [1, 9] }))).toEqual({
      'conditions.items.0.value': M.rangeNeedsBetween,
    });
  });

  it('refuses a percentage at or under 0 or over 1000, and a decrease of 100% or more', () => {
    const increase = (by: number) =>
      buildRule({
        scope: { level: 'adset' },
        actions: [{ type: 'increase_budget', by, unit: 'percent' }],
      });
    expect(refusals(increase(0))).toEqual({ 'actions.0.by': M.percentOutOfRange });
    expect(refusals(increase(-5))).toEqual({ 'actions.0.by': M.percentOutOfRange });
    expect(refusals(increase(1001))).toEqual({ 'actions.0.by': M.percentOutOfRange });
    expect(refusals(increase(1000))).toEqual({});
    const decrease = buildRule({
      scope: { level: 'adset' },
      actions: [{ type: 'decrease_budget', by: 100, unit: 'percent' }],
    });
    expect(refusals(decrease)).toEqual({ 'actions.0.by': M.decreasePercentMax });
  });

  it('refuses a floor above the ceiling', () => {
    const rule = buildRule({
      scope: { level: 'campaign' },
      actions: [{ type: 'decrease_budget', by: 50, unit: 'amount', floor: 600, ceiling: 500 }],
    });
    expect(refusals(rule)).toEqual({ 'actions.0.floor': M.floorAboveCeiling });
  });

  it('refuses a budget action at ad level', () => {
    for (const action of [
      { type: 'set_budget', amount: 100 },
      { type: 'increase_budget', by: 10, unit: 'percent' },
    ]) {
      expect(refusals(buildRule({ actions: [action] }))).toEqual({ 'actions.0.type': M.budgetActionAtAdLevel });
    }
  });

  it('refuses an empty condition list, at the top and in a group', () => {
    expect(refusals(withConditions())).toEqual({ 'conditions.items': M.conditionsEmpty });
    expect(refusals(withConditions(condition, { match: 'any', items: [] }))).toEqual({
      'conditions.items.1.items': M.conditionsEmpty,
    });
  });

  it('allows groups three deep and refuses a fourth level', () => {
    const nest = (depth: number): unknown =>
      depth === 1 ? { match: 'all', items: [condition] } : { match: 'any', items: [nest(depth - 1)] };
    expect(refusals(buildRule({ conditions: nest(3) }))).toEqual({});
    expect(refusals(buildRule({ conditions: nest(4) }))).toEqual({
      'conditions.items.0.items.0.items.0': M.groupTooDeep,
    });
  });

  it('refuses an item that is neither a condition nor a group', () => {
    expect(refusals(withConditions(7))).toEqual({ 'conditions.items.0': M.itemInvalid });
    expect(refusals(withConditions({ match: 'most', items: [condition] }))).toEqual({
      'conditions.items.0.match': M.matchInvalid,
    });
  });

  it('refuses bad schedules', () => {
    expect(refusals(buildRule({ schedule: { everyMinutes: 10 } }))).toEqual({ schedule: M.everyMinutesInvalid });
    expect(refusals(buildRule({ schedule: { dailyAt: '24:00' } }))).toEqual({ 'schedule.dailyAt': M.dailyAtInvalid });
    expect(refusals(buildRule({ schedule: { dailyAt: '9:00' } }))).toEqual({ 'schedule.dailyAt': M.dailyAtInvalid });
    expect(refusals(buildRule({ schedule: {} }))).toEqual({ schedule: M.scheduleInvalid });
    expect(refusals(buildRule({ schedule: { dailyAt: '23:59' } }))).toEqual({});
  });

  it('takes dayparting windows, and refuses each bad one with its own message', () => {
    const windows = (...list: unknown[]) => buildRule({ schedule: { windows: list } });
    const office = { days: [1, 2, 3, 4, 5], from: '08:00', to: '20:00' };
    expect(refusals(windows(office))).toEqual({});
    expect(refusals(windows({ days: [6, 7], from: '00:00', to: '24:00' }))).toEqual({});
    expect(refusals(windows())).toEqual({ 'schedule.windows': M.windowsInvalid });
    expect(refusals(windows(...Array.from({ length: 15 }, () => office)))).toEqual({
      'schedule.windows': M.windowsInvalid,
    });
    expect(refusals(windows({ ...office, days: [] }))).toEqual({ 'schedule.windows.0.days': M.windowDaysInvalid });
    expect(refusals(windows({ ...office, days: [0] }))).toEqual({ 'schedule.windows.0.days.0': M.windowDaysInvalid });
    expect(refusals(windows({ ...office, days: [1, 1] }))).toEqual({ 'schedule.windows.0.days': M.windowDaysInvalid });
    expect(refusals(windows({ ...office, from: '24:00' }))).toEqual({ 'schedule.windows.0.from': M.windowTimeInvalid });
    expect(refusals(windows({ ...office, to: '8pm' }))).toEqual({ 'schedule.windows.0.to': M.windowTimeInvalid });
    expect(refusals(windows({ ...office, from: '20:00', to: '08:00' }))).toEqual({
      'schedule.windows.0.to': M.windowOrder,
    });
    expect(refusals(buildRule({ schedule: { windows: [office] }, actions: [{ type: 'notify' }] }))).toEqual({
      actions: M.daypartNeedsPause,
    });
    expect(
      refusals(buildRule({ schedule: { windows: [office] }, actions: [{ type: 'pause', resumeAfter: { hours: 2 } }] })),
    ).toEqual({ 'actions.0.resumeAfter': M.daypartResumeAfter });
  });

  it('takes a timed hold on a pause: 1 to 168 whole hours, or a local HH:MM', () => {
    const pause = (resumeAfter: unknown) => buildRule({ actions: [{ type: 'pause', resumeAfter } as never] });
    expect(refusals(pause({ hours: 1 }))).toEqual({});
    expect(refusals(pause({ hours: 168 }))).toEqual({});
    expect(refusals(pause({ atLocalTime: '00:00' }))).toEqual({});
    expect(refusals(pause({ atLocalTime: '23:59' }))).toEqual({});
    for (const hours of [0, 169, 1.5, -2, '6'])
      expect(Object.values(refusals(pause({ hours })))).toEqual([M.resumeAfterHoursInvalid]);
    for (const atLocalTime of ['24:00', '9:00', '', 7])
      expect(Object.values(refusals(pause({ atLocalTime })))).toEqual([M.resumeAfterTimeInvalid]);
    expect(refusals(pause({}))).toEqual({ 'actions.0.resumeAfter': M.resumeAfterInvalid });
    expect(refusals(pause({ hours: 6, atLocalTime: '00:00' }))).toEqual({
      'actions.0.resumeAfter': M.resumeAfterInvalid,
    });
    expect(refusals(pause('6h'))).toEqual({ 'actions.0.resumeAfter': M.resumeAfterInvalid });
    // Only a pause is held: a resume takes no resumeAfter.
    expect(
      Object.keys(refusals(buildRule({ actions: [{ type: 'resume', resumeAfter: { hours: 6 } } as never] }))),
    ).toEqual(['actions.0']);
  });

  it('refuses bad safeguards, each on its field', () => {
    const rule = buildRule({
      safeguards: { cooldownHours: 1.5, maxActionsPerDay: 0, minSpend: -1, minImpressions: 2.5, settleHours: 24 },
    });
    expect(refusals(rule)).toEqual({
      'safeguards.cooldownHours': M.cooldownInvalid,
      'safeguards.maxActionsPerDay': M.maxActionsInvalid,
      'safeguards.minSpend': M.minSpendInvalid,
      'safeguards.minImpressions': M.minImpressionsInvalid,
      'safeguards.settleHours': M.settleHoursInvalid,
    });
  });

  it('refuses unknown fields, a bad account id, no actions, pause with resume, and two budget actions', () => {
    expect(refusals({ ...buildRule(), owner: 'x' })).toHaveProperty('');
    expect(refusals(buildRule({ scope: { level: 'ad', adAccountIds: ['act_1'] } }))).toEqual({
      'scope.adAccountIds.0': M.adAccountIdInvalid,
    });
    expect(refusals(buildRule({ actions: [] }))).toEqual({ actions: M.actionsEmpty });
    expect(refusals(buildRule({ actions: [{ type: 'pause' }, { type: 'resume' }] }))).toEqual({
      'actions.1.type': M.pauseAndResume,
    });
    const twoBudgets = buildRule({
      scope: { level: 'adset' },
      actions: [
        { type: 'set_budget', amount: 100 },
        { type: 'increase_budget', by: 5, unit: 'amount' },
      ],
    });
    expect(refusals(twoBudgets)).toEqual({ 'actions.1.type': M.oneBudgetAction });
  });

  it('takes any subset for an update, and nothing is refused', () => {
    expect(updateRuleRequestSchema.parse({ isActive: true })).toEqual({ isActive: true });
    const empty = updateRuleRequestSchema.safeParse({});
    expect(empty.error?.issues[0]?.message).toBe(M.nothingToUpdate);
    const bad = updateRuleRequestSchema.safeParse({
      scope: { level: 'ad' },
      actions: [{ type: 'set_budget', amount: 5 }],
    });
    expect(bad.error?.issues[0]?.message).toBe(M.budgetActionAtAdLevel);
  });

  it('counts leaf conditions through groups', () => {
    const rule = createRuleRequestSchema.parse(
      withConditions(condition, { match: 'any', items: [condition, { match: 'all', items: [condition, condition] }] }),
    );
    expect(countConditions(rule.conditions)).toBe(4);
  });

  it('defaults a backtest to 30 days and refuses more than 90', () => {
    expect(backtestRequestSchema.parse({})).toEqual({ days: 30 });
    expect(backtestRequestSchema.safeParse({ days: 91 }).success).toBe(false);
  });
});

describe('rule schemas as OpenAPI', () => {
  it('turn into JSON Schema the way the API documents them (requests as input, answers as output)', () => {
    const options = { unrepresentable: 'any' } as const;
    for (const schema of [createRuleRequestSchema, updateRuleRequestSchema, backtestRequestSchema]) {
      expect(() => z.toJSONSchema(schema, { ...options, io: 'input' })).not.toThrow();
    }
    for (const schema of [ruleSchema, rulePreviewSchema, ruleBacktestSchema, ruleRunSchema, ruleTemplateSchema]) {
      expect(() => z.toJSONSchema(schema, { ...options, io: 'output' })).not.toThrow();
    }
  });
});

describe('rule templates', () => {
  it('are eight valid rule bodies with an English and a Thai name', () => {
    expect(RULE_TEMPLATES.map((template) => template.id)).toEqual([
      'stop_loss_cpa',
      'scale_winners_roas',
      'pause_low_ctr',
      'fatigue_frequency',
      'revive_late_conversions',
      'creative_fatigue',
      'month_pacing',
      'dayparting',
    ]);
    for (const template of RULE_TEMPLATES) {
      expect(createRuleRequestSchema.parse(template.rule)).toEqual(template.rule);
      expect(template.name.th).toMatch(/[\u0E00-\u0E7F]/);
      expect(template.name.en).toMatch(/^[\x20-\x7E]+$/);
    }
  });

  it('include the fatigue template: an ad whose score reached 70 is proposed for a pause and notified', () => {
    const fatigue = RULE_TEMPLATES.find((template) => template.id === 'creative_fatigue')!;
    expect(fatigue.rule.scope.level).toBe('ad');
    expect(fatigue.rule.conditions.items).toEqual([
      expect.objectContaining({ metric: 'fatigue', operator: 'gte', value: 70 }),
    ]);
    expect(fatigue.rule.actions.map((action) => action.type)).toEqual(['pause', 'notify']);
    expect(fatigue.rule.mode).toBe('approve');
  });

  it('refuse the fatigue score above the ad level', () => {
    const body = { ...RULE_TEMPLATES.find((template) => template.id === 'creative_fatigue')!.rule };
    const result = createRuleRequestSchema.safeParse({
      ...body,
      scope: { ...body.scope, level: 'adset' },
      actions: [{ type: 'notify' }],
    });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['conditions.items.0.metric', 'The fatigue score is an ad’s: use it at the ad level'],
    ]);
  });

  it('carry the spec examples: CPA over ฿500 pauses, ROAS over 4.0 raises the budget with a ceiling', () => {
    const stopLoss = RULE_TEMPLATES.find((template) => template.id === 'stop_loss_cpa')!;
    expect(stopLoss.rule.conditions.items[0]).toMatchObject({ metric: 'cpa', operator: 'gt', value: 500 });
    expect(stopLoss.rule.actions).toEqual([{ type: 'pause' }]);
    const scale = RULE_TEMPLATES.find((template) => template.id === 'scale_winners_roas')!;
    expect(scale.rule.conditions.items[0]).toMatchObject({ metric: 'roas', operator: 'gt', value: 4 });
    expect(scale.rule.actions[0]).toMatchObject({ type: 'increase_budget', unit: 'percent', ceiling: 5000 });
  });
});
