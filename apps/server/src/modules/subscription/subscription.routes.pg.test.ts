import { ACTIVITY_MESSAGES, PLAN_NAMES, SUBSCRIPTION_MESSAGES, type PlanId } from '@adpilot/contracts';
import { activityLogs, automationRules } from '@adpilot/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRule } from '../../test/rule-factories.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Session = Awaited<ReturnType<typeof registerUser>>;
const call = (session: Session | undefined, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/subscription${url}`,
    headers: session?.auth ?? {},
    ...(payload ? { payload } : {}),
  });

describe('GET /api/subscription/plans and /current', () => {
  it('serves the catalogue in order with prices, limits and badges', async () => {
    const session = await registerUser(t.app);
    const response = await call(session, 'GET', '/plans');
    expect(response.statusCode).toBe(200);
    const plans = response.json().data;
    expect(
      plans.map((plan: { id: string; price: number; badge: string | null }) => [plan.id, plan.price, plan.badge]),
    ).toEqual([
      ['free', 0, null],
      ['pro', 29, 'popular'],
      ['business', 79, null],
      ['enterprise', 199, 'recommended'],
    ]);
    expect(plans[0].limits).toEqual({
      adAccounts: 1,
      activeRules: 3,
      aiRequests: 30,
      fastestCheckMinutes: 60,
      backtestDays: 7,
      seats: 1,
    });
    expect(plans[3].limits).toEqual({
      adAccounts: -1,
      activeRules: -1,
      aiRequests: -1,
      fastestCheckMinutes: 5,
      backtestDays: 90,
      seats: -1,
    });
    expect(plans[1].features).toContain('ai_requests');
    // Activity texts word plan ids with the catalogue's names: the contracts' copy must not drift from it.
    for (const plan of plans as { id: PlanId; name: string }[]) {
      expect(PLAN_NAMES[plan.id]).toBe(plan.name);
      expect(ACTIVITY_MESSAGES.en.plans[plan.id]).toBe(plan.name);
    }
  });

  it('starts every user on the free plan with zero usage, renewing on the first of next month', async () => {
    const session = await registerUser(t.app);
    const response = await call(session, 'GET', '/current');
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({
      plan: 'free',
      status: 'active',
      cancelAtPeriodEnd: false,
      provider: 'local',
      canManageBilling: false,
      aiRequestsUsed: 0,
      aiRequestsLimit: 30,
      rulesUsed: 0,
      rulesLimit: 3,
      adAccountsUsed: 0,
      adAccountsLimit: 1,
    });
    // Without Stripe the month is the calendar month: it renews on the first (ADR 0061).
    const now = t.clock.now;
    expect(data.currentPeriodEnd).toBe(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    );
  });

  it('needs a signed-in user', async () => {
    for (const [method, url] of [
      ['GET', '/current'],
      ['GET', '/plans'],
      ['POST', '/upgrade'],
      ['POST', '/cancel'],
      ['POST', '/portal'],
    ] as const) {
      expect((await call(undefined, method, url)).statusCode).toBe(401);
    }
  });
});

describe('POST /api/subscription/upgrade and /cancel (local billing)', () => {
  it('applies the plan at once, without a url, and its limits with it', async () => {
    const session = await registerUser(t.app);
    const response = await call(session, 'POST', '/upgrade', { planId: 'pro' });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.url).toBeUndefined();
    expect(data.subscription).toMatchObject({ plan: 'pro', aiRequestsLimit: 500, rulesLimit: 25, adAccountsLimit: 5 });
    expect((await call(session, 'GET', '/current')).json().data.plan).toBe('pro');
  });

  it('refuses the current plan with the spec’s Thai notice', async () => {
    const session = await registerUser(t.app);
    const response = await call(session, 'POST', '/upgrade', { planId: 'free' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'SUBSCRIPTION_SAME_PLAN', message: 'คุณใช้แผนนี้อยู่แล้ว' });
    expect(SUBSCRIPTION_MESSAGES.samePlan).toBe('คุณใช้แผนนี้อยู่แล้ว');
  });

  it('refuses an unknown plan or extra fields with a 400', async () => {
    const session = await registerUser(t.app);
    for (const payload of [{ planId: 'gold' }, {}, { planId: 'pro', extra: 1 }]) {
      const response = await call(session, 'POST', '/upgrade', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    }
  });

  it('cancels back to free at once; the free plan has nothing to cancel', async () => {
    const session = await registerUser(t.app);
    await call(session, 'POST', '/upgrade', { planId: 'business' });
    const response = await call(session, 'POST', '/cancel');
    expect(response.statusCode).toBe(200);
    expect(response.json().data.subscription).toMatchObject({ plan: 'free', rulesLimit: 3 });
    const again = await call(session, 'POST', '/cancel');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('SUBSCRIPTION_NOT_CANCELABLE');
  });

  it('parallel upgrades of one user end on one plan, each change logged once', async () => {
    const session = await registerUser(t.app);
    const answers = await Promise.all(
      ['pro', 'pro', 'pro'].map((planId) => call(session, 'POST', '/upgrade', { planId })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    const entries = await t.inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, session.workspaceId), eq(activityLogs.category, 'billing'))),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]?.metadata).toMatchObject({ code: 'plan_changed', params: { from: 'free', to: 'pro' } });
  });
});

describe('POST /api/subscription/portal (local billing)', () => {
  it('has no billing portal, on any plan, and says why in the envelope', async () => {
    const session = await registerUser(t.app);
    await call(session, 'POST', '/upgrade', { planId: 'pro' });
    const response = await call(session, 'POST', '/portal');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      success: false,
      code: 'BILLING_PORTAL_LOCAL',
      message: SUBSCRIPTION_MESSAGES.portalLocal,
    });
    expect((await call(session, 'GET', '/current')).json().data).toMatchObject({
      plan: 'pro',
      canManageBilling: false,
    });
  });

  it('refuses a body', async () => {
    const session = await registerUser(t.app);
    const response = await call(session, 'POST', '/portal', { customer: 'cus_someone_else' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
  });
});

describe('downgrade below current usage', () => {
  it('keeps every rule but switches off the newest beyond the limit, and says so in the activity log', async () => {
    const session = await registerUser(t.app);
    await call(session, 'POST', '/upgrade', { planId: 'pro' });
    const names: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const name = `Rule ${index + 1}`;
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/rules',
        headers: session.auth,
        payload: buildRule({ name, isActive: true }),
      });
      expect(response.statusCode).toBe(201);
      names.push(name);
    }
    const cancel = await call(session, 'POST', '/cancel');
    expect(cancel.json().data.subscription).toMatchObject({ plan: 'free', rulesUsed: 3, rulesLimit: 3 });

    const rules = await t.inspect((db) =>
      db.select().from(automationRules).where(eq(automationRules.workspaceId, session.workspaceId)),
    );
    expect(rules).toHaveLength(5);
    const off = rules
      .filter((rule) => !rule.isActive)
      .map((rule) => rule.name)
      .sort();
    expect(off).toEqual(['Rule 4', 'Rule 5']);

    const entries = await t.inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, session.workspaceId), eq(activityLogs.category, 'billing'))),
    );
    const deactivated = entries.find((entry) => entry.metadata.code === 'plan_rules_deactivated');
    expect(deactivated?.level).toBe('warning');
    expect(deactivated?.metadata.params).toMatchObject({ plan: 'free', limit: 3, count: 2 });
    expect((deactivated?.metadata.params as { rules: string[] }).rules.sort()).toEqual(['Rule 4', 'Rule 5']);
  });
});

describe('downgrade to a plan that checks rules less often (ADR 0053)', () => {
  const createRule = async (session: Session, overrides: Parameters<typeof buildRule>[0]) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/rules',
      headers: session.auth,
      payload: buildRule(overrides),
    });
    expect(response.statusCode).toBe(201);
    return response.json().data as { id: string; name: string };
  };
  const schedules = async (workspaceId: string) =>
    new Map(
      (
        await t.inspect((db) => db.select().from(automationRules).where(eq(automationRules.workspaceId, workspaceId)))
      ).map((rule) => [rule.name, { isActive: rule.isActive, schedule: rule.definition.schedule }]),
    );
  const entries = (workspaceId: string, code: string) =>
    t
      .inspect((db) =>
        db
          .select()
          .from(activityLogs)
          .where(and(eq(activityLogs.workspaceId, workspaceId), eq(activityLogs.category, 'billing'))),
      )
      .then((rows) => rows.filter((row) => row.metadata.code === code));

  it('moves active rules checking faster than the new plan to its fastest check, with one entry naming them', async () => {
    const session = await registerUser(t.app);
    await call(session, 'POST', '/upgrade', { planId: 'enterprise' });
    await createRule(session, { name: 'Every 5', isActive: true, schedule: { everyMinutes: 5 } });
    await createRule(session, { name: 'Also every 5', isActive: true, schedule: { everyMinutes: 5 } });
    await createRule(session, { name: 'Every 15', isActive: true, schedule: { everyMinutes: 15 } });
    await createRule(session, { name: 'Daily', isActive: true, schedule: { dailyAt: '09:00' } });
    await createRule(session, { name: 'Draft', isActive: false, schedule: { everyMinutes: 5 } });

    expect((await call(session, 'POST', '/upgrade', { planId: 'pro' })).statusCode).toBe(200);
    expect(await schedules(session.workspaceId)).toEqual(
      new Map([
        ['Every 5', { isActive: true, schedule: { everyMinutes: 15 } }],
        ['Also every 5', { isActive: true, schedule: { everyMinutes: 15 } }],
        ['Every 15', { isActive: true, schedule: { everyMinutes: 15 } }],
        // Switched off it never runs: its schedule is checked when it is switched on (ADR 0040).
        ['Draft', { isActive: false, schedule: { everyMinutes: 5 } }],
        ['Daily', { isActive: true, schedule: { dailyAt: '09:00' } }],
      ]),
    );
    const slowed = await entries(session.workspaceId, 'plan_rules_slowed');
    expect(slowed).toHaveLength(1);
    expect(slowed[0]?.level).toBe('warning');
    expect(slowed[0]?.metadata.params).toMatchObject({ plan: 'pro', minutes: 15, count: 2 });
    expect((slowed[0]?.metadata.params as { rules: string[] }).rules.sort()).toEqual(['Also every 5', 'Every 5']);
    expect(slowed[0]?.metadata.ruleIds as string[]).toHaveLength(2);
    expect(slowed[0]?.description).toMatch(
      /^The Pro plan checks rules at most every 15 minutes; now checked every 15 minutes: /,
    );

    // An upgrade does not speed anything back up, and logs no second entry.
    expect((await call(session, 'POST', '/upgrade', { planId: 'enterprise' })).statusCode).toBe(200);
    expect((await schedules(session.workspaceId)).get('Every 5')?.schedule).toEqual({ everyMinutes: 15 });
    expect(await entries(session.workspaceId, 'plan_rules_slowed')).toHaveLength(1);
  });

  it('slows only the rules still on after the active-rule limit, and logs nothing when none is too fast', async () => {
    const session = await registerUser(t.app);
    await call(session, 'POST', '/upgrade', { planId: 'pro' });
    for (let index = 1; index <= 5; index += 1) {
      await createRule(session, { name: `Rule ${index}`, isActive: true, schedule: { everyMinutes: 15 } });
    }
    expect((await call(session, 'POST', '/cancel')).statusCode).toBe(200);
    const rules = await schedules(session.workspaceId);
    for (const name of ['Rule 1', 'Rule 2', 'Rule 3'])
      expect(rules.get(name)).toEqual({ isActive: true, schedule: { everyMinutes: 60 } });
    for (const name of ['Rule 4', 'Rule 5'])
      expect(rules.get(name)).toEqual({ isActive: false, schedule: { everyMinutes: 15 } });
    const [slowed] = await entries(session.workspaceId, 'plan_rules_slowed');
    expect((slowed?.metadata.params as { rules: string[] }).rules.sort()).toEqual(['Rule 1', 'Rule 2', 'Rule 3']);
    expect(await entries(session.workspaceId, 'plan_rules_deactivated')).toHaveLength(1);

    const other = await registerUser(t.app);
    await call(other, 'POST', '/upgrade', { planId: 'business' });
    await createRule(other, { name: 'Hourly', isActive: true, schedule: { everyMinutes: 60 } });
    expect((await call(other, 'POST', '/upgrade', { planId: 'free' })).statusCode).toBe(200);
    expect(await entries(other.workspaceId, 'plan_rules_slowed')).toHaveLength(0);
  });

  it('leaves another user’s rules alone', async () => {
    const [owner, neighbour] = [await registerUser(t.app), await registerUser(t.app)];
    await call(owner, 'POST', '/upgrade', { planId: 'pro' });
    await call(neighbour, 'POST', '/upgrade', { planId: 'pro' });
    await createRule(neighbour, { name: 'Neighbour', isActive: true, schedule: { everyMinutes: 15 } });
    expect((await call(owner, 'POST', '/cancel')).statusCode).toBe(200);
    expect((await schedules(neighbour.workspaceId)).get('Neighbour')?.schedule).toEqual({ everyMinutes: 15 });
  });

  it('a rule edit racing the downgrade never leaves an active rule faster than the plan', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => registerUser(t.app)));
    const rules = await Promise.all(
      users.map(async (session) => {
        await call(session, 'POST', '/upgrade', { planId: 'pro' });
        return createRule(session, { name: 'Racing', isActive: true, schedule: { everyMinutes: 30 } });
      }),
    );
    const answers = await Promise.all(
      users.map((session, index) =>
        Promise.all([
          call(session, 'POST', '/cancel'),
          t.app.inject({
            method: 'PATCH',
            url: `/api/rules/${rules[index]?.id}`,
            headers: session.auth,
            payload: { schedule: { everyMinutes: 15 } },
          }),
        ]),
      ),
    );
    for (const [index, [cancel, edit]] of answers.entries()) {
      expect(cancel.statusCode).toBe(200);
      // Either the edit came first (and the downgrade slowed it) or second (and the free plan refused it).
      expect([200, 403]).toContain(edit.statusCode);
      if (edit.statusCode === 403) expect(edit.json().code).toBe('RULE_SCHEDULE_NOT_IN_PLAN');
      const session = users[index];
      if (!session) throw new Error('no user');
      expect((await schedules(session.workspaceId)).get('Racing')).toEqual({
        isActive: true,
        schedule: { everyMinutes: 60 },
      });
    }
  });

  it('a rule switched on while racing the downgrade never takes the user past the new active-rule limit', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => registerUser(t.app)));
    const drafts = await Promise.all(
      users.map(async (session) => {
        await call(session, 'POST', '/upgrade', { planId: 'pro' });
        for (let index = 1; index <= 3; index += 1)
          await createRule(session, { name: `On ${index}`, isActive: true, schedule: { everyMinutes: 60 } });
        return createRule(session, { name: 'Fourth', isActive: false, schedule: { everyMinutes: 60 } });
      }),
    );
    await Promise.all(
      users.map((session, index) =>
        Promise.all([
          call(session, 'POST', '/cancel'),
          t.app.inject({ method: 'POST', url: `/api/rules/${drafts[index]?.id}/toggle`, headers: session.auth }),
        ]),
      ),
    );
    for (const session of users) {
      const active = [...(await schedules(session.workspaceId)).values()].filter((rule) => rule.isActive);
      expect(active).toHaveLength(3);
    }
  });
});
