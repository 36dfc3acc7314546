import { RULE_MESSAGES, SUBSCRIPTION_MESSAGES, type PlanId } from '@adpilot/contracts';
import type { TenantScope } from '@adpilot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.ts';
import { buildRule } from '../../test/rule-factories.ts';
import { createTestApp, registerOnPlan, type registerUser, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Session = Awaited<ReturnType<typeof registerUser>>;

const onPlan = (planId: PlanId): Promise<Session> => registerOnPlan(t.app, planId);

const createRule = (session: Session, overrides: Parameters<typeof buildRule>[0] = {}) =>
  t.app.inject({ method: 'POST', url: '/api/rules', headers: session.auth, payload: buildRule(overrides) });

const current = async (session: Session) =>
  (await t.app.inject({ method: 'GET', url: '/api/subscription/current', headers: session.auth })).json().data;

/** Takes in parallel; answers how many were counted and the refusals. */
async function takeInParallel(scope: TenantScope, times: number) {
  const results = await Promise.allSettled(
    Array.from({ length: times }, () => t.modules.subscription.limits.takeAiRequest(scope)),
  );
  const taken = results.filter((result) => result.status === 'fulfilled');
  const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  return { taken, refused };
}

describe('active rules', () => {
  it.each([
    ['free', 3],
    ['pro', 25],
  ] as const)(
    'the %s plan allows %i active rules, in parallel, and refuses the next with the upgrade path',
    async (plan, limit) => {
      const session = await onPlan(plan);
      const answers = await Promise.all(
        Array.from({ length: limit + 2 }, () => createRule(session, { isActive: true })),
      );
      expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(limit);
      const refused = answers.filter((answer) => answer.statusCode === 403);
      expect(refused).toHaveLength(2);
      expect(refused[0]?.json()).toMatchObject({
        code: 'PLAN_LIMIT_REACHED',
        message: RULE_MESSAGES.activeRuleLimit,
        params: { plan, limit },
      });
      expect(RULE_MESSAGES.activeRuleLimit).toContain('Subscription page');
      // Inactive rules are not limited.
      expect((await createRule(session, { isActive: false })).statusCode).toBe(201);
      expect(await current(session)).toMatchObject({ rulesUsed: limit, rulesLimit: limit });
    },
  );

  it('never refuses on enterprise (-1)', async () => {
    const session = await onPlan('enterprise');
    const answers = await Promise.all(Array.from({ length: 30 }, () => createRule(session, { isActive: true })));
    expect(answers.every((answer) => answer.statusCode === 201)).toBe(true);
    expect(await current(session)).toMatchObject({ rulesUsed: 30, rulesLimit: -1 });
  });
});

describe('fastest rule check', () => {
  it.each([
    ['free', 60, 30],
    ['pro', 15, 5],
    ['business', 15, 5],
  ] as const)('the %s plan allows every %i minutes and refuses every %i', async (plan, allowed, refused) => {
    const session = await onPlan(plan);
    expect((await createRule(session, { isActive: true, schedule: { everyMinutes: allowed } })).statusCode).toBe(201);
    expect((await createRule(session, { isActive: true, schedule: { dailyAt: '09:00' } })).statusCode).toBe(201);
    // Switched off it never runs, so it may be saved; switching it on is when the plan's cadence applies.
    const draft = await createRule(session, { isActive: false, schedule: { everyMinutes: refused } });
    expect(draft.statusCode).toBe(201);
    const toggle = await t.app.inject({
      method: 'POST',
      url: `/api/rules/${draft.json().data.id}/toggle`,
      headers: session.auth,
    });
    expect(toggle.json()).toMatchObject({ code: 'RULE_SCHEDULE_NOT_IN_PLAN', params: { plan, limit: allowed } });
    const answer = await createRule(session, { isActive: true, schedule: { everyMinutes: refused } });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({
      code: 'RULE_SCHEDULE_NOT_IN_PLAN',
      message: SUBSCRIPTION_MESSAGES.scheduleTooFast(allowed),
      errors: [{ field: 'schedule.everyMinutes' }],
      params: { plan, limit: allowed },
    });
  });

  it('enterprise may check every 5 minutes', async () => {
    const session = await onPlan('enterprise');
    expect((await createRule(session, { isActive: true, schedule: { everyMinutes: 5 } })).statusCode).toBe(201);
  });

  it('after a downgrade, a schedule patched faster than the plan, or a too-fast rule switched on, is refused', async () => {
    const session = await onPlan('pro');
    const running = (await createRule(session, { isActive: true, schedule: { everyMinutes: 15 } })).json().data;
    const draft = (await createRule(session, { isActive: false, schedule: { everyMinutes: 15 } })).json().data;
    const cancel = await t.app.inject({ method: 'POST', url: '/api/subscription/cancel', headers: session.auth });
    expect(cancel.statusCode).toBe(200);
    const rules = (id: string, path: string, method: 'GET' | 'PATCH' | 'POST', payload?: object) =>
      t.app.inject({
        method,
        url: `/api/rules/${id}${path}`,
        headers: session.auth,
        ...(payload ? { payload } : {}),
      });
    // The running rule now runs as often as the free plan allows (ADR 0053); the switched-off one kept its schedule.
    expect((await rules(running.id, '', 'GET')).json().data.schedule).toEqual({ everyMinutes: 60 });
    expect((await rules(draft.id, '', 'GET')).json().data.schedule).toEqual({ everyMinutes: 15 });
    // Renaming is fine; a faster schedule on the running rule is not.
    expect((await rules(running.id, '', 'PATCH', { name: 'Renamed' })).statusCode).toBe(200);
    expect((await rules(running.id, '', 'PATCH', { schedule: { everyMinutes: 30 } })).statusCode).toBe(403);
    // Switching the too-fast one on is refused until its schedule fits.
    expect((await rules(draft.id, '/toggle', 'POST')).json()).toMatchObject({ code: 'RULE_SCHEDULE_NOT_IN_PLAN' });
    const fitted = await rules(draft.id, '', 'PATCH', { schedule: { everyMinutes: 60 }, isActive: true });
    expect(fitted.statusCode).toBe(200);
  });
});

describe('AI requests per month', () => {
  it('counts exactly the plan’s requests under parallel takes; a refused request is not counted', async () => {
    const session = await onPlan('free');
    const { taken, refused } = await takeInParallel(session.scope, 40);
    expect(taken).toHaveLength(30);
    expect(refused).toHaveLength(10);
    const error = refused[0] as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'AI_REQUEST_LIMIT_REACHED',
      statusCode: 429,
      params: { plan: 'free', limit: 30 },
    });
    expect(error.message).toBe(SUBSCRIPTION_MESSAGES.aiRequestLimit);
    expect(Number(error.headers?.['retry-after'])).toBeGreaterThan(0);
    expect(await current(session)).toMatchObject({ aiRequestsUsed: 30, aiRequestsLimit: 30 });
    // Refused requests left no trace: one more refusal, still 30.
    await expect(t.modules.subscription.limits.takeAiRequest(session.scope)).rejects.toMatchObject({
      statusCode: 429,
    });
    expect((await current(session)).aiRequestsUsed).toBe(30);
  });

  it('allows the last request below the limit and gives a returned request back', async () => {
    const session = await onPlan('free');
    await takeInParallel(session.scope, 29);
    const last = await t.modules.subscription.limits.takeAiRequest(session.scope);
    expect(last).toMatchObject({ used: 30, limit: 30 });
    await t.modules.subscription.limits.returnAiRequest(last);
    expect((await current(session)).aiRequestsUsed).toBe(29);
    expect((await t.modules.subscription.limits.takeAiRequest(session.scope)).used).toBe(30);
  });

  it('never refuses on enterprise (-1)', async () => {
    const session = await onPlan('enterprise');
    const { taken, refused } = await takeInParallel(session.scope, 60);
    expect(taken).toHaveLength(60);
    expect(refused).toHaveLength(0);
    expect(await current(session)).toMatchObject({ aiRequestsUsed: 60, aiRequestsLimit: -1 });
  });

  it('resets when the next month begins, and counts per user', async () => {
    const session = await onPlan('free');
    const other = await onPlan('free');
    await takeInParallel(session.scope, 30);
    await expect(t.modules.subscription.limits.takeAiRequest(session.scope)).rejects.toMatchObject({
      statusCode: 429,
    });
    expect((await current(other)).aiRequestsUsed).toBe(0);
    const before = await current(session);
    t.clock.advance(31 * 24 * 3600 * 1000);
    try {
      // The access token has expired a month later: ask the service itself.
      const after = await t.modules.subscription.service.current(session.scope);
      expect(after.aiRequestsUsed).toBe(0);
      expect(new Date(after.currentPeriodEnd).getTime()).toBeGreaterThan(new Date(before.currentPeriodEnd).getTime());
      expect((await t.modules.subscription.limits.takeAiRequest(session.scope)).used).toBe(1);
    } finally {
      t.clock.advance(-31 * 24 * 3600 * 1000);
    }
  });
});

describe('a plan change keeps the month’s AI requests (ADR 0061)', () => {
  const change = (session: Session, path: '/upgrade' | '/cancel', planId?: PlanId) =>
    t.app.inject({
      method: 'POST',
      url: `/api/subscription${path}`,
      headers: session.auth,
      ...(planId ? { payload: { planId } } : {}),
    });

  it('17 of 30, upgraded: 17 of 500; cancelled: 17 of 30, and the 31st request of the month is refused', async () => {
    const session = await onPlan('free');
    await takeInParallel(session.scope, 17);
    expect((await change(session, '/upgrade', 'pro')).json().data.subscription).toMatchObject({
      plan: 'pro',
      aiRequestsUsed: 17,
      aiRequestsLimit: 500,
    });
    expect((await change(session, '/cancel')).json().data.subscription).toMatchObject({
      plan: 'free',
      aiRequestsUsed: 17,
      aiRequestsLimit: 30,
    });
    const { taken, refused } = await takeInParallel(session.scope, 14);
    expect(taken).toHaveLength(13);
    expect(refused).toEqual([expect.objectContaining({ code: 'AI_REQUEST_LIMIT_REACHED', statusCode: 429 })]);
    expect(await current(session)).toMatchObject({ aiRequestsUsed: 30, aiRequestsLimit: 30 });
  });

  it('40 parallel requests at 25 of 30 after plan changes count exactly 5', async () => {
    const session = await onPlan('free');
    await takeInParallel(session.scope, 25);
    await change(session, '/upgrade', 'business');
    await change(session, '/cancel');
    expect(await current(session)).toMatchObject({ plan: 'free', aiRequestsUsed: 25 });
    const { taken, refused } = await takeInParallel(session.scope, 40);
    expect(taken).toHaveLength(5);
    expect(refused).toHaveLength(35);
    expect(await current(session)).toMatchObject({ aiRequestsUsed: 30, aiRequestsLimit: 30 });
  });

  it('plan changes racing parallel requests neither lose nor double a count', async () => {
    const session = await onPlan('free');
    const [takes] = await Promise.all([
      takeInParallel(session.scope, 20),
      change(session, '/upgrade', 'pro'),
      change(session, '/upgrade', 'business'),
    ]);
    expect(takes.taken).toHaveLength(20);
    expect((await current(session)).aiRequestsUsed).toBe(20);
  });

  it('counts per calendar month (UTC) without Stripe: the month ends on the first, whatever the plan’s start', async () => {
    const session = await onPlan('pro');
    const now = t.clock.now;
    const firstOfNext = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    expect((await current(session)).currentPeriodEnd).toBe(firstOfNext.toISOString());
    await takeInParallel(session.scope, 3);
    const saved = t.clock.now;
    t.clock.now = new Date(firstOfNext.getTime() - 1000);
    try {
      expect((await t.modules.subscription.service.current(session.scope)).aiRequestsUsed).toBe(3);
      t.clock.now = firstOfNext;
      expect((await t.modules.subscription.service.current(session.scope)).aiRequestsUsed).toBe(0);
      await expect(t.modules.subscription.limits.takeAiRequest(session.scope)).resolves.toMatchObject({
        used: 1,
        limit: 500,
      });
    } finally {
      t.clock.now = saved;
    }
  });
});

describe('the AI studio’s AiQuota', () => {
  it('is the same atomic take: parallel takes stop at the limit, refusals are 429s, a given-back request is free again', async () => {
    const session = await onPlan('free');
    const results = await Promise.allSettled(
      Array.from({ length: 35 }, () => t.modules.subscription.limits.aiQuota.take(session.scope)),
    );
    const taken = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    expect(taken).toHaveLength(30);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({
      reason: { code: 'AI_REQUEST_LIMIT_REACHED', statusCode: 429 },
    });
    expect(await t.modules.subscription.limits.aiQuota.usage(session.scope)).toEqual({
      plan: 'free',
      used: 30,
      limit: 30,
    });
    const [first] = taken;
    if (first) await t.modules.subscription.limits.aiQuota.giveBack(first);
    expect((await t.modules.subscription.limits.aiQuota.usage(session.scope)).used).toBe(29);
  });
});
