import { describeActionPlan, describeSkip, type CreateRuleRequest } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { compileRule, evaluateRule } from './evaluate.ts';
import { buildSnapshot } from './snapshot.ts';
import { NOW, TOKYO, buildAccount, buildEntity, buildRow, buildRule, buildTree, cond } from '../test/fixtures.ts';
import type { EngineAccount, EngineEntity } from './types.ts';

const everything = { match: 'all' as const, items: [cond('spend', 'gte', 0)] };

function plans(rule: Partial<CreateRuleRequest>, entities: EngineEntity[], account: EngineAccount = buildAccount()) {
  const snapshot = buildSnapshot({ accounts: [account], entities, rows: [], now: NOW });
  const result = evaluateRule(compileRule(buildRule({ conditions: everything, ...rule })), snapshot, [], {
    explain: 'all',
  });
  return result.decisions.map((decision) => ({ entity: decision.entity, plan: decision.actions[0]! }));
}

const raise = (by: number, extra: object = {}) => ({
  actions: [{ type: 'increase_budget' as const, by, unit: 'percent' as const, ...extra }],
  scope: { level: 'adset' as const },
});

describe('budget holder', () => {
  it('changes the ad set that holds its own budget', () => {
    const [only] = plans(raise(20), buildTree());
    expect(only!.plan).toMatchObject({
      target: { level: 'adset', externalId: 's-1' },
      holderReason: 'self',
      outcome: 'planned',
      change: { field: 'daily_budget', from: 1_000, to: 1_200, fromMinor: 100_000, toMinor: 120_000 },
    });
  });

  it('goes to the campaign under campaign budget optimisation, and says so', () => {
    const entities = buildTree({ campaign: { dailyBudgetMinor: 500_000 }, adset: { dailyBudgetMinor: null } });
    const [only] = plans(raise(10), entities);
    expect(only!.plan).toMatchObject({
      target: { level: 'campaign', externalId: 'c-1' },
      holderReason: 'campaign_budget',
      change: { from: 5_000, to: 5_500 },
    });
    expect(describeActionPlan(only!.plan, only!.entity)).toBe(
      'Raise the budget of campaign “Campaign 1” (it holds the budget of ad set “Ad set 1”): daily budget 5000 → 5500',
    );
  });

  it('moves a shared campaign budget once per run, whichever ad set matched first', () => {
    const entities = [
      ...buildTree({ campaign: { dailyBudgetMinor: 500_000 }, adset: { dailyBudgetMinor: null } }),
      buildEntity({ level: 'adset', externalId: 's-2', name: 'Ad set 2', adsetExternalId: null }),
    ];
    const [first, second] = plans(raise(10), entities);
    expect(first!.plan.outcome).toBe('planned');
    expect(second!.plan).toMatchObject({
      outcome: 'skipped',
      skip: { code: 'budget_holder_planned', params: { holderLevel: 'campaign', holderId: 'c-1', byEntityId: 's-1' } },
    });
  });

  it('has nothing to change on a campaign whose budgets live on its ad sets', () => {
    const [only] = plans({ ...raise(10), scope: { level: 'campaign' } }, buildTree());
    expect(only!.plan).toMatchObject({ outcome: 'skipped', skip: { code: 'no_budget_holder' } });
  });

  it('changes a lifetime budget when that is the one the holder has', () => {
    const entities = buildTree({ adset: { dailyBudgetMinor: null, lifetimeBudgetMinor: 3_000_000 } });
    expect(plans(raise(10), entities)[0]!.plan.change).toMatchObject({
      field: 'lifetime_budget',
      from: 30_000,
      to: 33_000,
    });
  });
});

describe('currency units', () => {
  it('converts with the currency offset: yen has no minor unit', () => {
    const tokyo = buildAccount({ id: TOKYO, currency: 'JPY', timezone: 'Asia/Tokyo' });
    const entities = buildTree({ adset: { adAccountId: TOKYO, dailyBudgetMinor: 5_000 } }).map((entity) => ({
      ...entity,
      adAccountId: TOKYO,
    }));
    const rule = {
      actions: [{ type: 'increase_budget' as const, by: 500, unit: 'amount' as const }],
      scope: { level: 'adset' as const },
    };
    expect(plans(rule, entities, tokyo)[0]!.plan.change).toEqual({
      field: 'daily_budget',
      from: 5_000,
      to: 5_500,
      fromMinor: 5_000,
      toMinor: 5_500,
    });
    const setRule = { actions: [{ type: 'set_budget' as const, amount: 1_500 }], scope: { level: 'adset' as const } };
    expect(plans(setRule, buildTree())[0]!.plan.change).toMatchObject({ to: 1_500, toMinor: 150_000 });
  });
});

describe('bounds', () => {
  it('stops an increase at the ceiling, and skips once there', () => {
    expect(plans(raise(50, { ceiling: 1_300 }), buildTree())[0]!.plan.change).toMatchObject({ to: 1_300 });
    const at = plans(raise(50, { ceiling: 1_000 }), buildTree())[0]!.plan;
    expect(at.skip).toEqual({ code: 'at_ceiling', params: { ceiling: 1_000, current: 1_000 } });
    expect(describeSkip(at.skip!)).toBe('the budget 1000 is at or above the ceiling 1000');
  });

  it('stops a decrease at the floor or the account minimum, whichever is higher', () => {
    const lower = (floor?: number) => ({
      actions: [{ type: 'decrease_budget' as const, by: 50, unit: 'percent' as const, ...(floor ? { floor } : {}) }],
      scope: { level: 'adset' as const },
    });
    expect(plans(lower(800), buildTree())[0]!.plan.change).toMatchObject({ to: 800 });
    const strict = buildAccount({ minDailyBudgetMinor: 90_000 });
    expect(plans(lower(300), buildTree(), strict)[0]!.plan.change).toMatchObject({ to: 900 });
    const atMinimum = buildTree({ adset: { dailyBudgetMinor: 90_000 } });
    expect(plans(lower(), atMinimum, strict)[0]!.plan.skip).toEqual({
      code: 'at_account_minimum',
      params: { minimum: 900, current: 900 },
    });
    const atFloor = buildTree({ adset: { dailyBudgetMinor: 80_000 } });
    expect(plans(lower(800), atFloor)[0]!.plan.skip).toEqual({
      code: 'at_floor',
      params: { floor: 800, current: 800 },
    });
  });

  it('refuses to set a daily budget under the account minimum, and skips a ceiling under it', () => {
    const strict = buildAccount({ minDailyBudgetMinor: 20_000 });
    const set = { actions: [{ type: 'set_budget' as const, amount: 150 }], scope: { level: 'adset' as const } };
    expect(plans(set, buildTree(), strict)[0]!.plan.skip).toEqual({
      code: 'below_account_minimum',
      params: { amount: 150, minimum: 200 },
    });
    expect(plans(raise(10, { ceiling: 150 }), buildTree(), strict)[0]!.plan.skip).toEqual({
      code: 'ceiling_below_account_minimum',
      params: { ceiling: 150, minimum: 200 },
    });
  });

  it('holds a lifetime budget to the account minimum as well: Meta refuses one under a day’s minimum', () => {
    const strict = buildAccount({ minDailyBudgetMinor: 20_000 });
    const lifetime = buildTree({ adset: { dailyBudgetMinor: null, lifetimeBudgetMinor: 3_000_000 } });
    const set = { actions: [{ type: 'set_budget' as const, amount: 150 }], scope: { level: 'adset' as const } };
    expect(plans(set, lifetime, strict)[0]!.plan.skip).toEqual({
      code: 'below_account_minimum',
      params: { amount: 150, minimum: 200 },
    });
    const lower = {
      actions: [{ type: 'decrease_budget' as const, by: 99.9, unit: 'percent' as const }],
      scope: { level: 'adset' as const },
    };
    expect(plans(lower, lifetime, strict)[0]!.plan.change).toMatchObject({ field: 'lifetime_budget', to: 200 });
    // Unknown minimum: only the rule's own bounds apply.
    expect(plans(lower, lifetime)[0]!.plan.change).toMatchObject({ field: 'lifetime_budget', to: 30 });
  });

  it('skips a change that rounds to the current budget', () => {
    const tiny = {
      actions: [{ type: 'increase_budget' as const, by: 0.001, unit: 'amount' as const }],
      scope: { level: 'adset' as const },
    };
    expect(plans(tiny, buildTree())[0]!.plan.skip).toEqual({ code: 'unchanged', params: { current: 1_000 } });
  });
});

describe('status changes', () => {
  it('pauses only what is active and resumes only what is paused', () => {
    const entities = [
      buildEntity({ externalId: 'on', status: 'ACTIVE' }),
      buildEntity({ externalId: 'off', status: 'PAUSED' }),
    ];
    const paused = plans({ actions: [{ type: 'pause' }] }, entities).map(({ plan }) => plan);
    expect(paused[0]).toMatchObject({ outcome: 'planned', change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' } });
    expect(paused[1]).toMatchObject({ outcome: 'skipped', skip: { code: 'already_paused' } });
    const resumed = plans({ actions: [{ type: 'resume' }] }, entities).map(({ plan }) => plan);
    expect(resumed[0]).toMatchObject({ outcome: 'skipped', skip: { code: 'already_active' } });
    expect(resumed[1]).toMatchObject({ outcome: 'planned', change: { from: 'PAUSED', to: 'ACTIVE' } });
  });

  it('notifies with the rule’s message and no change', () => {
    const [only] = plans({ actions: [{ type: 'notify', message: 'Check this ad' }] }, [buildEntity()]);
    expect(only!.plan).toMatchObject({
      outcome: 'planned',
      change: null,
      message: 'Check this ad',
      target: { externalId: 'ad-1' },
    });
  });
});

it('reads no delivery rows for budget-only conditions', () => {
  const rule = { conditions: { match: 'all' as const, items: [cond('daily_budget', 'lt', 2_000)] }, ...raise(10) };
  const snapshot = buildSnapshot({ accounts: [buildAccount()], entities: buildTree(), rows: [buildRow(0)], now: NOW });
  expect(evaluateRule(compileRule(buildRule(rule)), snapshot, []).matched).toBe(1);
});

describe('changes made outside AdPilot', () => {
  const HOUR = 3_600_000;
  const changed = (hoursAgo: number) =>
    buildTree({ adset: { externalChangeAt: NOW - hoursAgo * HOUR, externalChangeBy: 'Nok Colleague' } });

  it('leave the changed entity alone for the safeguard’s hours, with who and until when', () => {
    const [only] = plans(raise(20), changed(2));
    expect(only!.plan).toMatchObject({
      outcome: 'skipped',
      skip: {
        code: 'external_change',
        params: {
          hours: 24,
          at: new Date(NOW - 2 * HOUR).toISOString(),
          until: new Date(NOW + 22 * HOUR).toISOString(),
          by: 'Nok Colleague',
        },
      },
    });
    expect(describeSkip(only!.plan.skip!)).toContain('changed outside AdPilot');
  });

  it('act again once the hours are over, and at once when the safeguard is 0', () => {
    expect(plans(raise(20), changed(24))[0]!.plan.outcome).toBe('planned');
    const off = { ...raise(20), safeguards: { respectManualChangesHours: 0 } } as Partial<CreateRuleRequest>;
    expect(plans(off, changed(1))[0]!.plan.outcome).toBe('planned');
  });

  it('still notify about it', () => {
    const notify = { actions: [{ type: 'notify' as const }], scope: { level: 'adset' as const } };
    expect(plans(notify, changed(1))[0]!.plan.outcome).toBe('planned');
  });
});
