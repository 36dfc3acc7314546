import { describe, expect, it } from 'vitest';
import { planManual, type ManualAccount, type ManualTarget } from './manual-plan.ts';

const ID = '00000000-0000-4000-8000-000000000001';
const HOLDER = '00000000-0000-4000-8000-000000000002';
const now = new Date('2026-12-02T03:00:00Z');
const account: ManualAccount = { readOnly: false, needsReauth: false, minDailyBudget: 3300 };
const adSet = (over: Partial<ManualTarget> = {}): ManualTarget => ({
  id: ID,
  status: 'ACTIVE',
  currency: 'THB',
  budget: { daily: 500, lifetime: null, holderLevel: 'adset', holderId: ID },
  ...over,
});
const none = () => ({ count: 0, oldestAt: null });

describe('a change by hand, decided on the mirror', () => {
  it('pauses and resumes from the status it has, and refuses what is already so', () => {
    expect(planManual({ entityId: ID, type: 'pause' }, adSet(), account, none, now)).toMatchObject({
      outcome: 'would_apply',
      field: 'status',
      from: 'ACTIVE',
      to: 'PAUSED',
      targetId: ID,
    });
    expect(planManual({ entityId: ID, type: 'resume' }, adSet(), account, none, now)).toMatchObject({
      outcome: 'refused',
      code: 'ALREADY_ACTIVE',
    });
  });

  it('moves the budget holder’s budget by a percent, an amount, or to an amount, in minor units', () => {
    const cbo = adSet({ budget: { daily: 1000, lifetime: null, holderLevel: 'campaign', holderId: HOLDER } });
    expect(planManual({ entityId: ID, type: 'increase_budget', percent: 15 }, cbo, account, none, now)).toMatchObject({
      outcome: 'would_apply',
      targetId: HOLDER,
      field: 'daily_budget',
      from: 1000,
      to: 1150,
    });
    expect(planManual({ entityId: ID, type: 'decrease_budget', amount: 0.5 }, adSet(), account, none, now).to).toBe(
      499.5,
    );
    expect(planManual({ entityId: ID, type: 'set_budget', amount: 750 }, adSet(), account, none, now).to).toBe(750);
    const lifetime = adSet({ budget: { daily: null, lifetime: 9000, holderLevel: 'adset', holderId: ID } });
    expect(planManual({ entityId: ID, type: 'set_budget', amount: 8000 }, lifetime, account, none, now).field).toBe(
      'lifetime_budget',
    );
  });

  it('refuses under the account minimum, an unchanged budget, no holder, and a fifth change within the hour', () => {
    expect(planManual({ entityId: ID, type: 'set_budget', amount: 32 }, adSet(), account, none, now)).toMatchObject({
      code: 'BELOW_ACCOUNT_MINIMUM',
      params: { amount: 32, minimum: 33, currency: 'THB' },
    });
    expect(planManual({ entityId: ID, type: 'set_budget', amount: 500 }, adSet(), account, none, now).code).toBe(
      'UNCHANGED',
    );
    const abo = adSet({ budget: { daily: null, lifetime: null, holderLevel: 'adset', holderId: null } });
    expect(planManual({ entityId: ID, type: 'set_budget', amount: 50 }, abo, account, none, now).code).toBe(
      'NO_BUDGET_HOLDER',
    );
    const oldest = new Date(now.getTime() - 20 * 60_000);
    const four = () => ({ count: 4, oldestAt: oldest });
    expect(planManual({ entityId: ID, type: 'set_budget', amount: 600 }, adSet(), account, four, now)).toMatchObject({
      code: 'BUDGET_CHANGE_LIMIT',
      params: { limit: 4, count: 4, until: new Date(oldest.getTime() + 3_600_000).toISOString() },
    });
    const three = () => ({ count: 3, oldestAt: oldest });
    expect(planManual({ entityId: ID, type: 'set_budget', amount: 600 }, adSet(), account, three, now).outcome).toBe(
      'would_apply',
    );
  });

  it('refuses read-only and disconnected accounts with their code, and archived entities', () => {
    expect(planManual({ entityId: ID, type: 'pause' }, adSet(), { ...account, readOnly: true }, none, now).code).toBe(
      'AD_ACCOUNT_READ_ONLY',
    );
    expect(
      planManual({ entityId: ID, type: 'pause' }, adSet(), { ...account, needsReauth: true }, none, now).code,
    ).toBe('META_REAUTH_REQUIRED');
    expect(planManual({ entityId: ID, type: 'pause' }, adSet({ status: 'ARCHIVED' }), account, none, now).code).toBe(
      'NOT_EDITABLE',
    );
    expect(planManual({ entityId: ID, type: 'pause' }, undefined, undefined, none, now).code).toBe('ENTITY_NOT_FOUND');
  });
});
