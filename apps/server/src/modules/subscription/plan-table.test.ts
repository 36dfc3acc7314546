import { LIMITED_FEATURES, PLAN_TABLE, SUBSCRIPTION_MESSAGES, type PlanEntry } from '@adpilot/contracts';
import { subscriptionPlans } from '@adpilot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRule } from '../../test/rule-factories.ts';
import { createTestApp, registerOnPlan, registerUser, type TestApp } from '../../test/test-app.ts';
import { inviteTo } from '../../test/workspace-fixtures.ts';

/**
 * What a plan lists is what it enforces (ADR 0113): the contracts' PLAN_TABLE is what the plan cards are drawn from
 * and what every check reads. This walks each plan's listed features against the check that enforces it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Session = Awaited<ReturnType<typeof registerUser>>;
const limited = new Set<string>(Object.keys(LIMITED_FEATURES));

async function backtest(session: Session, days: number) {
  const rule = await t.app.inject({
    method: 'POST',
    url: '/api/rules',
    headers: session.auth,
    payload: buildRule({ isActive: false }),
  });
  const id = (rule.json() as { data: { id: string } }).data.id;
  return t.app.inject({
    method: 'POST',
    url: `/api/rules/${id}/backtest`,
    headers: session.auth,
    payload: { days },
  });
}

describe('the plan table', () => {
  it('is what the catalogue stores and what GET /plans answers, prices in USD and THB', async () => {
    const rows = await t.inspect((db) => db.select().from(subscriptionPlans));
    for (const entry of PLAN_TABLE) {
      const row = rows.find((r) => r.id === entry.id);
      expect(row).toMatchObject({ name: entry.name, price: entry.prices.USD, ...entry.limits, badge: entry.badge });
      expect(row?.features).toEqual(entry.features);
    }
    const session = await registerUser(t.app);
    const plans = (await t.app.inject({ method: 'GET', url: '/api/subscription/plans', headers: session.auth })).json()
      .data as { id: string; features: string[]; limits: object; prices: object[] }[];
    expect(plans.map((plan) => plan.id)).toEqual(PLAN_TABLE.map((entry) => entry.id));
    for (const [i, entry] of PLAN_TABLE.entries()) {
      expect(plans[i]?.features).toEqual(entry.features);
      expect(plans[i]?.limits).toEqual(entry.limits);
      expect(plans[i]?.prices).toEqual([
        { currency: 'USD', amount: entry.prices.USD },
        { currency: 'THB', amount: entry.prices.THB },
      ]);
    }
  });

  it('lists every limit on every plan, and viewers free on every plan', () => {
    for (const entry of PLAN_TABLE) {
      for (const feature of limited) expect(entry.features).toContain(feature);
      expect(entry.features).toContain('free_viewers');
    }
  });

  describe.each(PLAN_TABLE.map((entry) => [entry.id, entry] as const))('%s', (_id, entry: PlanEntry) => {
    let session: Session;
    beforeAll(async () => {
      session = await registerOnPlan(t.app, entry.id);
    });

    it('enforces each listed limit with the figure the card shows', async () => {
      const limits = t.modules.subscription.limits;
      const figures = await t.database.tenant(session.scope, async (tx) => ({
        rules: await limits.rulesIn(tx),
        accounts: await limits.adAccountLimitIn(tx),
        backtest: await limits.backtestDaysIn(tx),
      }));
      const seats = await t.database.system('plan table walk', (tx) => limits.seatsOf(tx, session.workspaceId));
      const ai = await limits.aiQuota.usage(session.scope);
      const cap = (n: number) => (n === -1 ? Number.POSITIVE_INFINITY : n);
      const enforced: Record<keyof typeof LIMITED_FEATURES | 'seats', number> = {
        ad_accounts: figures.accounts.limit,
        active_rules: figures.rules.activeRules,
        ai_requests: cap(ai.limit),
        rule_check: figures.rules.fastestCheckMinutes,
        backtest: figures.backtest.days,
        seats: cap(seats.seats),
      };
      for (const [feature, key] of Object.entries(LIMITED_FEATURES)) {
        expect([feature, enforced[feature as keyof typeof LIMITED_FEATURES]]).toEqual([
          feature,
          key === 'fastestCheckMinutes' || key === 'backtestDays' ? entry.limits[key] : cap(entry.limits[key]),
        ]);
      }
      expect(enforced.seats).toBe(cap(entry.limits.seats));
    });

    it('backtests as far back as listed, and refuses a day more naming the plan', async () => {
      expect((await backtest(session, entry.limits.backtestDays)).statusCode).toBe(200);
      if (entry.limits.backtestDays < 90) {
        const refused = await backtest(session, entry.limits.backtestDays + 1);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({
          code: 'BACKTEST_RANGE_NOT_IN_PLAN',
          message: SUBSCRIPTION_MESSAGES.backtestTooLong(entry.id, entry.limits.backtestDays),
          params: { plan: entry.id, limit: entry.limits.backtestDays },
        });
        expect(refused.json().message).toContain(`The ${entry.name} plan backtests rules over at most`);
      }
      // The rule page's default of 30 days fits every plan's panel: it offers min(30, the plan's days) (issue 33).
      expect((await backtest(session, Math.min(30, entry.limits.backtestDays))).statusCode).toBe(200);
    });

    it('seats as listed: the seat after the last is refused, a viewer never', async () => {
      const limit = entry.limits.seats;
      if (limit !== -1) {
        for (let i = 1; i < limit; i += 1) {
          expect(
            (await inviteTo(t, session, session.workspaceId, `s${i}-${Date.now()}@example.com`, 'editor')).statusCode,
          ).toBe(201);
        }
        const over = await inviteTo(t, session, session.workspaceId, `over-${Date.now()}@example.com`, 'editor');
        expect(over.json()).toMatchObject({ code: 'SEAT_LIMIT_REACHED', params: { plan: entry.id, limit } });
      }
      expect(
        (await inviteTo(t, session, session.workspaceId, `viewer-${Date.now()}@example.com`, 'viewer')).statusCode,
      ).toBe(201);
    });
  });
});
