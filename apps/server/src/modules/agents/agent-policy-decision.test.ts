import { AGENT_POLICY_DEFAULT } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { budgetChangePercent, routeAgentChange, type AgentChangeContext } from './agent-policy-decision.ts';

const CAMPAIGN = '00000000-0000-4000-8000-00000000000c';
const PROTECTED = '00000000-0000-4000-8000-00000000000f';
const policy = { maxBudgetChangePercent: 20, maxChangesPerDay: 3, protectedCampaignIds: [PROTECTED] };
const context = (overrides: Partial<AgentChangeContext> = {}): AgentChangeContext => ({
  campaignId: CAMPAIGN,
  liveBudget: 1000,
  appliedToday: 0,
  ...overrides,
});

describe('routeAgentChange: the agent policy decides apply or propose', () => {
  it('applies a pause or a resume outside protected campaigns while the day has changes left', () => {
    expect(routeAgentChange(policy, { type: 'pause' }, context())).toEqual({
      route: 'apply',
      budgetChangePercent: null,
    });
    expect(routeAgentChange(policy, { type: 'resume' }, context({ appliedToday: 2 }))).toMatchObject({
      route: 'apply',
    });
  });

  it('applies a budget change up to the limit exactly, and proposes one a cent beyond it', () => {
    expect(routeAgentChange(policy, { type: 'set_budget', amount: 1200 }, context())).toEqual({
      route: 'apply',
      budgetChangePercent: 20,
    });
    expect(routeAgentChange(policy, { type: 'set_budget', amount: 800 }, context())).toMatchObject({
      route: 'apply',
      budgetChangePercent: 20,
    });
    expect(routeAgentChange(policy, { type: 'set_budget', amount: 1200.01 }, context())).toEqual({
      route: 'propose',
      reasons: ['budget_change_too_large'],
    });
    expect(routeAgentChange(policy, { type: 'increase_budget', percent: 20 }, context())).toMatchObject({
      route: 'apply',
    });
    expect(routeAgentChange(policy, { type: 'decrease_budget', percent: 25 }, context())).toEqual({
      route: 'propose',
      reasons: ['budget_change_too_large'],
    });
  });

  it('proposes every change to a protected campaign, budgets and statuses alike', () => {
    for (const change of [{ type: 'pause' as const }, { type: 'increase_budget' as const, percent: 5 }])
      expect(routeAgentChange(policy, change, context({ campaignId: PROTECTED }))).toEqual({
        route: 'propose',
        reasons: ['protected_campaign'],
      });
  });

  it('proposes once the day’s allowance is used, and every change when the allowance is zero', () => {
    expect(routeAgentChange(policy, { type: 'pause' }, context({ appliedToday: 3 }))).toEqual({
      route: 'propose',
      reasons: ['daily_limit'],
    });
    expect(
      routeAgentChange({ ...policy, maxChangesPerDay: 0 }, { type: 'resume' }, context({ appliedToday: 0 })),
    ).toEqual({ route: 'propose', reasons: ['daily_limit'] });
  });

  it('leaves to a person a budget it cannot judge: none live, or no amount given', () => {
    expect(routeAgentChange(policy, { type: 'set_budget', amount: 50 }, context({ liveBudget: null }))).toEqual({
      route: 'propose',
      reasons: ['budget_unknown'],
    });
    expect(routeAgentChange(policy, { type: 'set_budget', amount: 50 }, context({ liveBudget: 0 }))).toEqual({
      route: 'propose',
      reasons: ['budget_unknown'],
    });
    expect(routeAgentChange(policy, { type: 'increase_budget' }, context())).toEqual({
      route: 'propose',
      reasons: ['amount_missing'],
    });
  });

  it('treats an entity of an unknown campaign as possibly protected, only when some campaign is', () => {
    expect(routeAgentChange(policy, { type: 'pause' }, context({ campaignId: null }))).toEqual({
      route: 'propose',
      reasons: ['campaign_unknown'],
    });
    expect(
      routeAgentChange({ ...policy, protectedCampaignIds: [] }, { type: 'pause' }, context({ campaignId: null })),
    ).toMatchObject({ route: 'apply' });
  });

  it('names every reason at once', () => {
    expect(
      routeAgentChange(
        policy,
        { type: 'increase_budget', percent: 90 },
        context({ campaignId: PROTECTED, appliedToday: 9 }),
      ),
    ).toEqual({ route: 'propose', reasons: ['protected_campaign', 'daily_limit', 'budget_change_too_large'] });
  });

  it('under the default policy, a fifth of the budget is the most one action moves', () => {
    const at = (amount: number) =>
      routeAgentChange(AGENT_POLICY_DEFAULT, { type: 'set_budget', amount }, context({ liveBudget: 500 })).route;
    expect([at(600), at(400), at(601), at(399)]).toEqual(['apply', 'apply', 'propose', 'propose']);
  });
});

describe('budgetChangePercent', () => {
  it('is the size of the move in percent of the live budget, whichever the direction', () => {
    expect(budgetChangePercent({ type: 'set_budget', amount: 150 }, 100)).toBeCloseTo(50);
    expect(budgetChangePercent({ type: 'set_budget', amount: 50 }, 100)).toBeCloseTo(50);
    expect(budgetChangePercent({ type: 'decrease_budget', percent: 10 }, 100)).toBe(10);
  });
});
