import { addDays, currencyOffset, localDate } from '@adpilot/contracts';
import type { AdAccountRow } from '@adpilot/db';
import { describe, expect, it } from 'vitest';
import { connectedUser, rulesSandboxApp, thbAccount } from '../../../test/rules-sandbox.ts';

const { app, sandbox, rules } = rulesSandboxApp();

/** An ad's figures over first…last (local dates) straight from the sandbox's delivery model, not the mirror. */
function delivered(account: AdAccountRow, adId: string, first: string, last: string) {
  const offset = currencyOffset(account.currency);
  const now = sandbox().sandbox.now();
  const ad = sandbox().sandbox.world.ads.get(adId)!;
  const total = { spend: 0, purchases: 0, impressions: 0 };
  for (let date = first; date <= last; date = addDays(date, 1)) {
    const day = sandbox().sandbox.delivery.adDay(ad, date, now);
    if (!day) continue;
    total.spend += day.spend / offset;
    total.purchases += day.purchases;
    total.impressions += day.impressions;
  }
  return total;
}

const cpaOf = (t: { spend: number; purchases: number }) => (t.purchases > 0 ? t.spend / t.purchases : null);

function rule(account: AdAccountRow, condition: object) {
  return {
    name: 'Relative',
    scope: { adAccountIds: [account.id], level: 'ad' },
    conditions: { match: 'all', items: [condition] },
    actions: [{ type: 'notify' }],
    schedule: { everyMinutes: 15 },
    safeguards: { cooldownHours: 0, maxActionsPerDay: 100, minSpend: 0, minImpressions: 0, settleHours: 0 },
  };
}

describe('relative conditions on the sandbox', () => {
  it('previous period: the preview matches exactly the ads the sandbox’s own delivery picks', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const today = localDate(account.timezone, app().clock.now.getTime());
    for (const [metric, value] of [
      ['spend', 5],
      ['cpa', 20],
    ] as const) {
      const response = await rules(
        session,
        'POST',
        '/preview',
        rule(account, { metric, operator: 'gt', value, window: 'last_7d', compare: 'previous_period' }),
      );
      expect(response.statusCode, response.body).toBe(200);
      const { entities } = response.json().data as {
        entities: {
          entity: { externalId: string };
          matched: boolean;
          explanation: {
            conditions: {
              items: { value: number | null; relative: { current: number | null; reference: number | null } }[];
            };
          };
        }[];
      };
      expect(entities.length).toBeGreaterThan(3);
      const expected: string[] = [];
      for (const decision of entities) {
        const now = delivered(account, decision.entity.externalId, addDays(today, -7), addDays(today, -1));
        const before = delivered(account, decision.entity.externalId, addDays(today, -14), addDays(today, -8));
        const [current, reference] = metric === 'spend' ? [now.spend, before.spend] : [cpaOf(now), cpaOf(before)];
        const trace = decision.explanation.conditions.items[0]!;
        if (current === null) expect(trace.relative.current).toBeNull();
        else expect(trace.relative.current).toBeCloseTo(current, 4);
        if (reference === null) expect(trace.relative.reference).toBeNull();
        else expect(trace.relative.reference).toBeCloseTo(reference, 4);
        if (
          current !== null &&
          reference !== null &&
          reference !== 0 &&
          ((current - reference) / reference) * 100 > value
        ) {
          expected.push(decision.entity.externalId);
        }
      }
      const picked = entities.filter((decision) => decision.matched).map((decision) => decision.entity.externalId);
      expect(picked.sort(), metric).toEqual(expected.sort());
      if (metric === 'spend') expect(picked.length).toBeLessThan(entities.length);
    }
  });

  it('× the account: the preview matches the ads above 1.2 × the account’s CPA of the same window', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const today = localDate(account.timezone, app().clock.now.getTime());
    const [first, last] = [addDays(today, -7), addDays(today, -1)];
    const response = await rules(
      session,
      'POST',
      '/preview',
      rule(account, { metric: 'cpa', operator: 'gt', factor: 1.2, window: 'last_7d', compare: 'account' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const { entities } = response.json().data as { entities: { entity: { externalId: string }; matched: boolean }[] };
    const world = sandbox().sandbox.world;
    const all = world.accountAds(world.account(account.facebookAccountId)!);
    const sum = all.reduce(
      (acc, ad) => {
        const t = delivered(account, ad.id, first, last);
        return { spend: acc.spend + t.spend, purchases: acc.purchases + t.purchases };
      },
      { spend: 0, purchases: 0 },
    );
    const accountCpa = cpaOf(sum)!;
    const expected = entities
      .filter((decision) => {
        const cpa = cpaOf(delivered(account, decision.entity.externalId, first, last));
        return cpa !== null && cpa > accountCpa * 1.2;
      })
      .map((decision) => decision.entity.externalId);
    const picked = entities.filter((decision) => decision.matched).map((decision) => decision.entity.externalId);
    expect(picked.sort()).toEqual(expected.sort());
    expect(picked.length).toBeGreaterThan(0);
    expect(picked.length).toBeLessThan(entities.length);
  });

  it('refuses a relative condition that cannot be computed, with a message on the field', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const cases: [object, string][] = [
      [{ metric: 'spend', operator: 'gt', value: 5, window: 'lifetime', compare: 'previous_period' }, 'window'],
      [{ metric: 'daily_budget', operator: 'gt', value: 5, window: 'last_7d', compare: 'previous_period' }, 'metric'],
      [{ metric: 'cpa', operator: 'gt', value: 5, window: 'last_7d', compare: 'account' }, 'factor'],
      [{ metric: 'cpa', operator: 'gt', factor: 2, window: 'last_7d' }, 'factor'],
    ];
    for (const [condition, field] of cases) {
      const response = await rules(session, 'POST', '/preview', rule(account, condition));
      expect(response.statusCode).toBe(400);
      expect(JSON.stringify(response.json().errors)).toContain(field);
    }
  });
});
