import { RULE_MESSAGES, RULE_TEMPLATES, type ScaledRuleTemplate } from '@adpilot/contracts';
import { adAccounts, ruleActions, ruleRuns } from '@adpilot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from '../../../test/test-app.ts';
import { buildRule } from '../../../test/rule-factories.ts';

let t: TestApp;
// Two active rules at most, so the limit is observable; unlimited is the default (see rules.service.ts).
const ACTIVE_LIMIT = 2;

beforeAll(async () => {
  t = await createTestApp(
    {},
    { rules: { quota: { rulesIn: async () => ({ plan: 'pro', activeRules: ACTIVE_LIMIT, fastestCheckMinutes: 0 }) } } },
  );
});
afterAll(() => t.close());

type Session = Awaited<ReturnType<typeof registerUser>>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (session: Session | undefined, method: Method, url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/rules${url}`,
    headers: session?.auth ?? {},
    ...(payload ? { payload } : {}),
  });

async function create(session: Session, overrides: Parameters<typeof buildRule>[0] = {}) {
  const response = await call(session, 'POST', '/', buildRule(overrides));
  expect(response.statusCode).toBe(201);
  return response.json().data;
}

/** An ad account row of `workspaceId`, as a connection would leave it (no Meta call needed for validation). */
async function insertAccount(workspaceId: string): Promise<string> {
  const [row] = await t.inspect((db) =>
    db
      .insert(adAccounts)
      .values({
        workspaceId,
        facebookAccountId: String(Math.floor(Math.random() * 1e12)),
        facebookAccountName: 'Siam Living Store',
        metaAccountStatus: 1,
        currency: 'THB',
        timezone: 'Asia/Bangkok',
        accessTokenEnc: 'v1.none',
      })
      .returning({ id: adAccounts.id }),
  );
  if (!row) throw new Error('no account');
  return row.id;
}

/** A run with one applied pause in the owner's ledger, as a run would leave it. */
async function insertAppliedAction(workspaceId: string, ruleId: string): Promise<string> {
  const accountId = await insertAccount(workspaceId);
  return t.inspect(async (db) => {
    const [run] = await db
      .insert(ruleRuns)
      .values({ workspaceId, ruleId, slot: 'manual:test', trigger: 'manual', status: 'completed' })
      .returning({ id: ruleRuns.id });
    const ref = { level: 'ad' as const, externalId: '1201', name: 'Carousel' };
    const [action] = await db
      .insert(ruleActions)
      .values({
        workspaceId,
        ruleId,
        runId: run?.id ?? '',
        adAccountId: accountId,
        slot: 'manual:test',
        actionType: 'pause',
        entityLevel: ref.level,
        entityExternalId: ref.externalId,
        entityName: ref.name,
        targetLevel: ref.level,
        targetExternalId: ref.externalId,
        targetName: ref.name,
        field: 'status',
        currency: 'THB',
        beforeStatus: 'ACTIVE',
        afterStatus: 'PAUSED',
        state: 'applied',
        explanation: { decision: 'matched', notJudged: null, settling: false, conditions: null },
      })
      .returning({ id: ruleActions.id });
    return action?.id ?? '';
  });
}

describe('rules CRUD', () => {
  it('creates (201), reads, lists newest first, updates and deletes', async () => {
    const session = await registerUser(t.app);
    const first = await create(session, { name: 'First' });
    expect(first).toMatchObject({
      name: 'First',
      isActive: false,
      lastTriggered: null,
      schedule: { everyMinutes: 60 },
      safeguards: { cooldownHours: 24 },
      warnings: [],
    });
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    t.clock.advance(1000);
    const second = await create(session, { name: 'Second' });

    const list = (await call(session, 'GET', '/')).json().data;
    expect(list.map((rule: { name: string }) => rule.name)).toEqual(['Second', 'First']);
    expect((await call(session, 'GET', `/${first.id}`)).json().data.name).toBe('First');

    const patched = await call(session, 'PATCH', `/${first.id}`, { name: 'Renamed', schedule: { dailyAt: '09:30' } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({
      name: 'Renamed',
      schedule: { dailyAt: '09:30' },
      conditions: first.conditions,
    });

    expect((await call(session, 'DELETE', `/${second.id}`)).statusCode).toBe(200);
    expect((await call(session, 'GET', `/${second.id}`)).statusCode).toBe(404);
    expect((await call(session, 'GET', '/')).json().data).toHaveLength(1);
  });

  it('warns about a budget increase without a ceiling and about an active rule acting against it', async () => {
    const session = await registerUser(t.app);
    const raise = await create(session, {
      scope: { adAccountIds: [], level: 'adset' },
      actions: [{ type: 'increase_budget', by: 20, unit: 'percent' }],
    });
    expect(raise.warnings).toEqual([{ code: 'budget_increase_without_ceiling', params: { actionIndex: 0 } }]);
    const lower = await create(session, {
      isActive: true,
      scope: { adAccountIds: [], level: 'adset' },
      actions: [{ type: 'decrease_budget', by: 10, unit: 'percent', floor: 100 }],
    });
    const again = (await call(session, 'GET', `/${raise.id}`)).json().data;
    expect(again.warnings).toContainEqual({
      code: 'conflicting_rule',
      params: { ruleId: lower.id, ruleName: lower.name, conflict: 'budget_direction' },
    });
  });

  it('answers "User not authenticated" without a signed-in user', async () => {
    for (const [method, url] of [
      ['GET', '/'],
      ['POST', '/'],
      ['GET', '/templates'],
    ] as const) {
      const response = await call(undefined, method, url, method === 'POST' ? buildRule() : undefined);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ success: false, message: RULE_MESSAGES.notAuthenticated });
    }
  });

  it('serves the templates, each a valid rule body with an English and a Thai name', async () => {
    const session = await registerUser(t.app);
    const templates = (await call(session, 'GET', '/templates')).json().data;
    expect(templates.map((template: { id: string }) => template.id)).toEqual(RULE_TEMPLATES.map((x) => x.id));
    for (const template of templates) {
      expect(template.name.th).toMatch(/[\u0E00-\u0E7F]/);
      expect((await call(session, 'POST', '/', template.rule)).statusCode).toBe(201);
    }
  });
});

describe('templates in the account currency', () => {
  it('scales every amount to the currency asked for, names it, and each body still saves', async () => {
    const session = await registerUser(t.app);
    const baht = (await call(session, 'GET', '/templates')).json().data as ScaledRuleTemplate[];
    const yen = (await call(session, 'GET', '/templates?currency=JPY')).json().data as ScaledRuleTemplate[];
    expect(baht.every((template) => template.currency === 'THB')).toBe(true);
    expect(yen.every((template) => template.currency === 'JPY')).toBe(true);
    const stopLoss = yen.find((template) => template.id === 'stop_loss_cpa')!;
    // ฿500 at 0.23 baht a yen is ¥2,174, typed as ¥2,000; the minimum spend ฿100 as ¥400 (¥435).
    expect(stopLoss.rule.conditions.items[0]).toMatchObject({ metric: 'cpa', value: 2000 });
    expect(stopLoss.rule.safeguards.minSpend).toBe(400);
    expect(stopLoss.description.en).toContain('above ¥2,000');
    expect(stopLoss.description.en).not.toContain('฿');
    expect(stopLoss.description.th).toContain('¥2,000');
    const scale = yen.find((template) => template.id === 'scale_winners_roas')!;
    // A ratio stays: ROAS 4 is ROAS 4 in any currency; the ceiling ฿5,000 is ¥20,000 (¥21,739).
    expect(scale.rule.conditions.items[0]).toMatchObject({ metric: 'roas', value: 4 });
    expect(scale.rule.actions[0]).toMatchObject({ type: 'increase_budget', by: 20, unit: 'percent', ceiling: 20_000 });
    for (const template of yen) expect((await call(session, 'POST', '/', template.rule)).statusCode).toBe(201);
  });

  it('refuses a currency it has no rate for, in the envelope', async () => {
    const session = await registerUser(t.app);
    const response = await call(session, 'GET', '/templates?currency=XXX');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
  });
});

describe('validation: one message per field', () => {
  const cases: { name: string; body: object; field: string; message: string }[] = [
    {
      name: 'an unknown metric',
      body: { conditions: { match: 'all', items: [{ metric: 'likes', operator: 'gt', value: 1, window: 'today' }] } },
      field: 'conditions.items.0.metric',
      message: RULE_MESSAGES.metricUnknown,
    },
    {
      name: 'an unknown window',
      body: { conditions: { match: 'all', items: [{ metric: 'cpa', operator: 'gt', value: 1, window: 'last_9d' }] } },
      field: 'conditions.items.0.window',
      message: RULE_MESSAGES.windowUnknown,
    },
    {
      name: 'between without two numbers',
      body: {
        conditions: { match: 'all', items: [{ metric: 'cpa', operator: 'between', value: 5, window: 'today' }] },
      },
      field: 'conditions.items.0.value',
      message: RULE_MESSAGES.betweenNeedsRange,
    },
    {
      name: 'between with the ends out of order',
      body: {
        conditions: { match: 'all', items: [{ metric: 'cpa', operator: 'between', value: [9, 5], window: 'today' }] },
      },
      field: 'conditions.items.0.value',
      message: RULE_MESSAGES.rangeUnordered,
    },
    {
      name: 'a percentage of 0',
      body: { scope: { level: 'adset' }, actions: [{ type: 'increase_budget', by: 0, unit: 'percent' }] },
      field: 'actions.0.by',
      message: RULE_MESSAGES.percentOutOfRange,
    },
    {
      name: 'a percentage above 1000',
      body: { scope: { level: 'adset' }, actions: [{ type: 'increase_budget', by: 1001, unit: 'percent' }] },
      field: 'actions.0.by',
      message: RULE_MESSAGES.percentOutOfRange,
    },
    {
      name: 'a floor above the ceiling',
      body: {
        scope: { level: 'adset' },
        actions: [{ type: 'increase_budget', by: 10, unit: 'percent', ceiling: 100, floor: 200 }],
      },
      field: 'actions.0.floor',
      message: RULE_MESSAGES.floorAboveCeiling,
    },
    {
      name: 'a budget action at ad level',
      body: { scope: { level: 'ad' }, actions: [{ type: 'set_budget', amount: 500 }] },
      field: 'actions.0.type',
      message: RULE_MESSAGES.budgetActionAtAdLevel,
    },
    {
      name: 'an empty condition list',
      body: { conditions: { match: 'all', items: [] } },
      field: 'conditions.items',
      message: RULE_MESSAGES.conditionsEmpty,
    },
  ];

  for (const { name, body, field, message } of cases) {
    it(`refuses ${name}`, async () => {
      const session = await registerUser(t.app);
      const response = await call(session, 'POST', '/', buildRule(body));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect(response.json().errors).toContainEqual({ field, message });
    });
  }

  it('refuses an ad account that is not the caller’s, and accepts the caller’s own', async () => {
    const session = await registerUser(t.app);
    const other = await registerUser(t.app);
    const mine = await insertAccount(session.workspaceId);
    const theirs = await insertAccount(other.workspaceId);
    const refused = await call(
      session,
      'POST',
      '/',
      buildRule({ scope: { adAccountIds: [mine, theirs], level: 'ad' } }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      { field: 'scope.adAccountIds.1', message: RULE_MESSAGES.adAccountNotOwned },
    ]);
    const accepted = await call(session, 'POST', '/', buildRule({ scope: { adAccountIds: [mine], level: 'ad' } }));
    expect(accepted.statusCode).toBe(201);
  });

  it('checks the merged rule on PATCH: a budget action cannot meet an ad-level scope from either side', async () => {
    const session = await registerUser(t.app);
    const rule = await create(session, {
      scope: { adAccountIds: [], level: 'adset' },
      actions: [{ type: 'set_budget', amount: 500 }],
    });
    const response = await call(session, 'PATCH', `/${rule.id}`, { scope: { adAccountIds: [], level: 'ad' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({
      field: 'actions.0.type',
      message: RULE_MESSAGES.budgetActionAtAdLevel,
    });
    expect((await call(session, 'PATCH', `/${rule.id}`, {})).statusCode).toBe(400);
  });
});

describe('toggle and the active-rule limit', () => {
  it('flips on and off; parallel toggles of one rule never lose a flip', async () => {
    const session = await registerUser(t.app);
    const rule = await create(session);
    const on = await call(session, 'POST', `/${rule.id}/toggle`);
    expect(on.json().data.isActive).toBe(true);
    const off = await call(session, 'POST', `/${rule.id}/toggle`);
    expect(off.json().data.isActive).toBe(false);

    const answers = await Promise.all(Array.from({ length: 6 }, () => call(session, 'POST', `/${rule.id}/toggle`)));
    const states = answers.map((answer) => answer.json().data.isActive as boolean);
    // Six flips from off: the answers alternate on/off in some order, and the rule ends where it began.
    expect(states.filter(Boolean)).toHaveLength(3);
    expect((await call(session, 'GET', `/${rule.id}`)).json().data.isActive).toBe(false);
  });

  it('lets no more than the plan’s active rules be switched on, even in parallel', async () => {
    const session = await registerUser(t.app);
    const rules = await Promise.all(Array.from({ length: 5 }, () => create(session)));
    const answers = await Promise.all(rules.map((rule) => call(session, 'POST', `/${rule.id}/toggle`)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(ACTIVE_LIMIT);
    const refused = answers.filter((answer) => answer.statusCode === 403);
    expect(refused).toHaveLength(rules.length - ACTIVE_LIMIT);
    expect(refused[0]?.json()).toMatchObject({ code: 'PLAN_LIMIT_REACHED', message: RULE_MESSAGES.activeRuleLimit });
    const active = (await call(session, 'GET', '/')).json().data.filter((rule: { isActive: boolean }) => rule.isActive);
    expect(active).toHaveLength(ACTIVE_LIMIT);
    // Creating or patching a rule as active counts too.
    expect((await call(session, 'POST', '/', buildRule({ isActive: true }))).statusCode).toBe(403);
    const inactive = rules.find((rule) => !active.some((a: { id: string }) => a.id === rule.id));
    expect((await call(session, 'PATCH', `/${inactive.id}`, { isActive: true })).statusCode).toBe(403);
  });
});

describe('tenant isolation', () => {
  it('answers 404 for another user’s rule on every route', async () => {
    const owner = await registerUser(t.app);
    const intruder = await registerUser(t.app);
    const rule = await create(owner);
    const actionId = await insertAppliedAction(owner.workspaceId, rule.id);
    const routes: [Method, string, object?][] = [
      ['GET', `/${rule.id}`],
      ['PATCH', `/${rule.id}`, { name: 'Mine now' }],
      ['POST', `/${rule.id}/toggle`],
      ['POST', `/${rule.id}/preview`],
      ['POST', `/${rule.id}/backtest`, { days: 7 }],
      ['POST', `/${rule.id}/run`],
      ['GET', `/${rule.id}/runs`],
      ['POST', `/actions/${actionId}/revert`],
      ['DELETE', `/${rule.id}`],
    ];
    for (const [method, url, payload] of routes) {
      const response = await call(intruder, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
    // The owner still sees its run and action: the intruder's calls changed nothing.
    const runs = (await call(owner, 'GET', `/${rule.id}/runs`)).json().data;
    expect(runs).toHaveLength(1);
    expect(runs[0].actions[0]).toMatchObject({ id: actionId, status: 'applied' });
    expect((await call(intruder, 'GET', '/')).json().data).toEqual([]);
    const untouched = (await call(owner, 'GET', `/${rule.id}`)).json().data;
    expect(untouched).toMatchObject({ name: rule.name, isActive: false });
  });
});
