import { activityLogs, automationRules, billingEvents, subscriptions } from '@adpilot/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildRule } from '../../test/rule-factories.ts';
import {
  buildSubscription,
  deliverStripeEvent,
  startStripeFake,
  stripeEvent,
  type RunningStripeFake,
} from '../../test/stripe-fake.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

const SECRET_KEY = 'sk_test_fake';
const WEBHOOK_SECRET = 'whsec_test_secret_for_adpilot';

let t: TestApp;
let fake: RunningStripeFake;

beforeAll(async () => {
  fake = await startStripeFake({ secretKey: SECRET_KEY });
  t = await createTestApp(
    {},
    { billing: () => ({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: fake.url }) },
  );
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

type Session = Awaited<ReturnType<typeof registerUser>>;
const api = (session: Session, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/subscription${url}`, headers: session.auth, ...(payload ? { payload } : {}) });
const current = async (session: Session) => (await api(session, 'GET', '/current')).json().data;

/** Delivers an event the way Stripe does: the JSON body and its Stripe-Signature header. */
const deliver = (body: object, options: { signature?: string | null; secret?: string; timestamp?: number } = {}) =>
  deliverStripeEvent(t.app, body, options.secret ?? WEBHOOK_SECRET, options);

const billingEntries = (workspaceId: string) =>
  t.inspect((db) =>
    db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.workspaceId, workspaceId), eq(activityLogs.category, 'billing'))),
  );

/** A user who went through Checkout for `planId`: the subscription as Stripe holds it, and the completed session. */
async function subscribed(planId = 'pro', status = 'active') {
  const session = await registerUser(t.app);
  const customer = `cus_${session.workspaceId.slice(0, 8)}`;
  const subscription = buildSubscription({ customer, workspaceId: session.workspaceId, planId, status });
  fake.subscriptions.set(subscription.id, subscription);
  const completed = stripeEvent('checkout.session.completed', {
    id: `cs_test_${subscription.id}`,
    object: 'checkout.session',
    mode: 'subscription',
    client_reference_id: session.workspaceId,
    customer,
    subscription: subscription.id,
    metadata: { workspace_id: session.workspaceId, plan_id: planId },
  });
  return { session, subscription, completed };
}

describe('upgrade through Stripe Checkout', () => {
  it('creates the customer and a subscription Checkout Session with idempotency keys, and answers its url', async () => {
    const session = await registerUser(t.app);
    const response = await api(session, 'POST', '/upgrade', { planId: 'pro' });
    expect(response.statusCode).toBe(200);
    const { url, subscription } = response.json().data;
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    // Nothing changes until Stripe says the payment went through.
    expect(subscription.plan).toBe('free');

    const customer = fake.requests.find((request) => request.path === '/v1/customers');
    expect(customer).toMatchObject({ method: 'POST', idempotencyKey: `customer-${session.workspaceId}` });
    expect(customer?.authorization).toBe(`Bearer ${SECRET_KEY}`);
    const checkout = fake.requests.find((request) => request.path === '/v1/checkout/sessions');
    expect(checkout?.idempotencyKey).toMatch(new RegExp(`^checkout-${session.workspaceId}-pro-\\d{4}-\\d{2}-\\d{2}$`));
    expect(checkout?.params).toMatchObject({
      mode: 'subscription',
      client_reference_id: session.workspaceId,
      customer: expect.stringMatching(/^cus_/),
      line_items: [
        {
          quantity: '1',
          price_data: {
            currency: 'usd',
            unit_amount: '2900',
            recurring: { interval: 'month' },
            product_data: { name: 'AdPilot Pro' },
          },
        },
      ],
      subscription_data: { metadata: { workspace_id: session.workspaceId, plan_id: 'pro' } },
      success_url: 'http://localhost:3000/subscription?checkout=success',
      cancel_url: 'http://localhost:3000/subscription?checkout=cancel',
    });

    // A second click: the stored customer is reused and the same key answers the same session.
    const again = await api(session, 'POST', '/upgrade', { planId: 'pro' });
    expect(again.json().data.url).toBe(url);
    expect(fake.requests.filter((request) => request.path === '/v1/customers')).toHaveLength(1);
  });

  it('answers 502 in the envelope when Stripe keeps failing, retrying with the same idempotency key', async () => {
    const session = await registerUser(t.app);
    fake.failNext(10);
    try {
      const response = await api(session, 'POST', '/upgrade', { planId: 'business' });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({ success: false, code: 'BILLING_PROVIDER_ERROR' });
    } finally {
      fake.failNext(0);
    }
    const attempts = fake.requests.filter((request) => request.path === '/v1/customers');
    expect(attempts.length).toBeGreaterThan(1);
    expect(new Set(attempts.map((request) => request.idempotencyKey))).toEqual(
      new Set([`customer-${session.workspaceId}`]),
    );
  });

  it('refuses the current plan with the Thai notice before calling Stripe', async () => {
    const session = await registerUser(t.app);
    const response = await api(session, 'POST', '/upgrade', { planId: 'free' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('คุณใช้แผนนี้อยู่แล้ว');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('POST /api/billing/webhook', () => {
  it('refuses a missing, wrong or expired signature, with no effect', async () => {
    const { session, completed } = await subscribed();
    const answers = [
      await deliver(completed, { signature: null }),
      await deliver(completed, { signature: 't=1,v1=deadbeef' }),
      await deliver(completed, { secret: 'whsec_someone_else' }),
      await deliver(completed, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ success: false, code: 'WEBHOOK_SIGNATURE_INVALID' });
    }
    expect((await current(session)).plan).toBe('free');
    const events = await t.inspect((db) => db.select().from(billingEvents).where(eq(billingEvents.id, completed.id)));
    expect(events).toHaveLength(0);
  });

  it('applies checkout.session.completed: the plan, its period and the customer', async () => {
    const { session, subscription, completed } = await subscribed('business');
    const answer = await deliver(completed);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toEqual({ received: true, outcome: 'applied' });
    const data = await current(session);
    expect(data).toMatchObject({ plan: 'business', status: 'active', provider: 'stripe', rulesLimit: 100 });
    expect(new Date(data.currentPeriodEnd).getTime()).toBe(
      (subscription.items.data[0]?.current_period_end ?? 0) * 1000,
    );
    const [row] = await t.inspect((db) =>
      db.select().from(subscriptions).where(eq(subscriptions.workspaceId, session.workspaceId)),
    );
    expect(row).toMatchObject({ stripeCustomerId: subscription.customer, stripeSubscriptionId: subscription.id });
  });

  it('applies one event delivered three times (at once) exactly once', async () => {
    const { session, completed } = await subscribed('pro');
    const answers = await Promise.all([deliver(completed), deliver(completed), deliver(completed)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.json().data.outcome).sort()).toEqual(['applied', 'duplicate', 'duplicate']);
    const changes = (await billingEntries(session.workspaceId)).filter(
      (entry) => entry.metadata.code === 'plan_changed',
    );
    expect(changes).toHaveLength(1);
    expect((await current(session)).plan).toBe('pro');
  });

  it('ends in the right state when subscription.updated arrives before checkout.session.completed', async () => {
    const { session, subscription, completed } = await subscribed('pro');
    // Stripe's state has moved on to business and cancel-at-period-end by the time the first event arrives.
    subscription.metadata.plan_id = 'business';
    subscription.cancel_at_period_end = true;
    const updated = stripeEvent('customer.subscription.updated', {
      ...subscription,
      metadata: { ...subscription.metadata },
    });
    expect((await deliver(updated)).json().data.outcome).toBe('applied');
    // The older event, now late, must not bring pro back.
    expect((await deliver(completed)).json().data.outcome).toBe('applied');
    expect(await current(session)).toMatchObject({ plan: 'business', cancelAtPeriodEnd: true, provider: 'stripe' });
  });

  it('a failed payment marks the subscription past due, tells the user, and keeps the plan until the period ends', async () => {
    const { session, subscription, completed } = await subscribed('pro');
    await deliver(completed);
    subscription.status = 'past_due';
    const failed = stripeEvent('invoice.payment_failed', {
      id: 'in_test_failed',
      object: 'invoice',
      customer: subscription.customer,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: {} } },
    });
    const sentBefore = t.mailer.sent.length;
    expect((await deliver(failed)).json().data.outcome).toBe('applied');
    expect(await current(session)).toMatchObject({ plan: 'pro', status: 'past_due', rulesLimit: 25 });
    const entry = (await billingEntries(session.workspaceId)).find((row) => row.metadata.code === 'payment_failed');
    expect(entry).toMatchObject({ level: 'error', metadata: { params: { plan: 'pro' } } });
    // The stored English names the day as words, never as an ISO instant.
    expect(entry?.description).toMatch(
      /^Payment for the Pro plan failed; it stays active until [A-Z][a-z]{2} \d{1,2}, \d{4}$/,
    );
    expect(t.mailer.sent.slice(sentBefore)).toEqual([
      expect.objectContaining({ to: session.user.email, subject: 'AdPilot: your payment failed' }),
    ]);
    // Once the unpaid period is over, the free plan's limits apply.
    const end = (subscription.items.data[0]?.current_period_end ?? 0) * 1000;
    const limits = await t.modules.subscription.limits.state(session.scope);
    expect(limits.plan.id).toBe('pro');
    const saved = t.clock.now;
    t.clock.now = new Date(end + 1000);
    try {
      expect((await t.modules.subscription.limits.state(session.scope)).plan.id).toBe('free');
    } finally {
      t.clock.now = saved;
    }
    // invoice.paid afterwards: Stripe has it active again.
    subscription.status = 'active';
    const paid = stripeEvent('invoice.paid', { ...failed.data.object, id: 'in_test_paid' });
    expect((await deliver(paid)).json().data.outcome).toBe('applied');
    expect(await current(session)).toMatchObject({ plan: 'pro', status: 'active' });
  });

  it('customer.subscription.deleted returns the user to the free plan; an old subscription’s events change nothing', async () => {
    const { session, subscription, completed } = await subscribed('pro');
    await deliver(completed);
    const old = buildSubscription({
      customer: subscription.customer,
      workspaceId: session.workspaceId,
      planId: 'enterprise',
      status: 'canceled',
    });
    fake.subscriptions.set(old.id, old);
    await deliver(stripeEvent('customer.subscription.deleted', old));
    expect((await current(session)).plan).toBe('pro');
    subscription.status = 'canceled';
    expect((await deliver(stripeEvent('customer.subscription.deleted', subscription))).json().data.outcome).toBe(
      'applied',
    );
    expect(await current(session)).toMatchObject({ plan: 'free', status: 'active', cancelAtPeriodEnd: false });
  });

  it('an ended subscription slows the rules the free plan would not check as often, in the webhook’s unit of work', async () => {
    const { session, subscription, completed } = await subscribed('pro');
    await deliver(completed);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rules',
      headers: session.auth,
      payload: buildRule({ name: 'Quarter-hourly', isActive: true, schedule: { everyMinutes: 15 } }),
    });
    expect(created.statusCode).toBe(201);
    subscription.status = 'canceled';
    expect((await deliver(stripeEvent('customer.subscription.deleted', subscription))).json().data.outcome).toBe(
      'applied',
    );
    const [rule] = await t.inspect((db) =>
      db.select().from(automationRules).where(eq(automationRules.id, created.json().data.id)),
    );
    expect(rule?.definition.schedule).toEqual({ everyMinutes: 60 });
    const slowed = (await billingEntries(session.workspaceId)).filter(
      (row) => row.metadata.code === 'plan_rules_slowed',
    );
    expect(slowed.map((row) => row.metadata.params)).toEqual([
      { plan: 'free', minutes: 60, count: 1, rules: ['Quarter-hourly'] },
    ]);
  });

  it('acknowledges events it does not handle, or for no user of ours, without effect', async () => {
    expect((await deliver(stripeEvent('charge.succeeded', { id: 'ch_1', object: 'charge' }))).json().data.outcome).toBe(
      'ignored',
    );
    const stranger = buildSubscription({ customer: 'cus_stranger', workspaceId: 'not-a-workspace', planId: 'pro' });
    const answer = await deliver(stripeEvent('customer.subscription.updated', stranger));
    expect(answer.json().data.outcome).toBe('ignored');
  });
});

describe('AI requests through Stripe (ADR 0061)', () => {
  const usage = (session: Session) => t.modules.subscription.limits.aiQuota.usage(session.scope);
  const take = (session: Session, times: number) =>
    Promise.all(Array.from({ length: times }, () => t.modules.subscription.limits.takeAiRequest(session.scope)));

  it('Checkout keeps the month’s count; a portal plan change keeps it; a new billing period starts its own', async () => {
    const { session, subscription, completed } = await subscribed('pro');
    await take(session, 17);
    await deliver(completed);
    expect(await usage(session)).toEqual({ plan: 'pro', used: 17, limit: 500 });
    await take(session, 3);
    subscription.metadata.plan_id = 'business';
    await deliver(stripeEvent('customer.subscription.updated', subscription));
    expect(await usage(session)).toEqual({ plan: 'business', used: 20, limit: 3000 });

    // Stripe renews: the next period, reported by its webhook, counts from zero; the last one stays as it was.
    const [item] = subscription.items.data;
    if (!item) throw new Error('the fake subscription has an item');
    const previous = { start: item.current_period_start, end: item.current_period_end };
    item.current_period_start = previous.end;
    item.current_period_end = previous.end + 30 * 86_400;
    const saved = t.clock.now;
    t.clock.now = new Date(previous.end * 1000 + 3_600_000);
    try {
      await deliver(stripeEvent('customer.subscription.updated', subscription));
      expect(await usage(session)).toEqual({ plan: 'business', used: 0, limit: 3000 });
      expect(await t.modules.subscription.limits.takeAiRequest(session.scope)).toMatchObject({
        periodStart: new Date(previous.end * 1000),
        used: 1,
      });
      const current = await t.modules.subscription.service.current(session.scope);
      expect(current.currentPeriodEnd).toBe(new Date(item.current_period_end * 1000).toISOString());
    } finally {
      t.clock.now = saved;
    }
  });

  it('follows Stripe’s period before its renewal event arrives, and an ended subscription keeps the count', async () => {
    const { session, subscription, completed } = await subscribed('pro');
    await deliver(completed);
    await take(session, 40);
    const end = (subscription.items.data[0]?.current_period_end ?? 0) * 1000;
    const saved = t.clock.now;
    t.clock.now = new Date(end + 60_000);
    try {
      expect((await usage(session)).used).toBe(0);
    } finally {
      t.clock.now = saved;
    }
    subscription.status = 'canceled';
    await deliver(stripeEvent('customer.subscription.deleted', subscription));
    // Ended mid-period: back on the free plan with the 40 counted this month, so nothing more until it ends.
    expect(await usage(session)).toEqual({ plan: 'free', used: 40, limit: 30 });
    await expect(t.modules.subscription.limits.takeAiRequest(session.scope)).rejects.toMatchObject({
      statusCode: 429,
    });
  });
});

describe('cancel and the billing portal through Stripe', () => {
  it('cancels at the period’s end with an idempotency key; the plan stays until then', async () => {
    const { session, subscription, completed } = await subscribed('pro');
    await deliver(completed);
    const response = await api(session, 'POST', '/cancel');
    expect(response.statusCode).toBe(200);
    expect(response.json().data.subscription).toMatchObject({ plan: 'pro', cancelAtPeriodEnd: true });
    const update = fake.requests.find(
      (request) => request.path === `/v1/subscriptions/${subscription.id}` && request.method === 'POST',
    );
    expect(update).toMatchObject({
      params: { cancel_at_period_end: 'true' },
      idempotencyKey: `cancel-${subscription.id}`,
    });
  });

  it('opens the billing portal for a Stripe customer, and sends a paid plan change there', async () => {
    const { session, subscription, completed } = await subscribed('pro');
    await deliver(completed);
    const portal = await api(session, 'POST', '/portal');
    expect(portal.statusCode).toBe(200);
    expect(portal.json().data.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    const request = fake.requests.find((entry) => entry.path === '/v1/billing_portal/sessions');
    expect(request?.params).toEqual({
      customer: subscription.customer,
      return_url: 'http://localhost:3000/subscription',
    });
    expect(request?.idempotencyKey).toMatch(/^portal-/);
    const change = await api(session, 'POST', '/upgrade', { planId: 'business' });
    expect(change.json().data.url).toMatch(/^https:\/\/billing\.stripe\.com\//);
  });

  it('has no portal for a user Stripe does not know yet, and says so in the envelope without calling Stripe', async () => {
    const session = await registerUser(t.app);
    const response = await api(session, 'POST', '/portal');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      success: false,
      code: 'BILLING_PORTAL_NO_ACCOUNT',
      message: 'There is no billing account to manage yet',
    });
    expect(fake.requests).toHaveLength(0);
    expect((await current(session)).canManageBilling).toBe(false);
  });

  it('offers the portal while a Stripe subscription is held: paid, past due and cancelling, not after it ended', async () => {
    const { session, subscription, completed } = await subscribed('pro');
    await deliver(completed);
    expect(await current(session)).toMatchObject({ plan: 'pro', canManageBilling: true });
    subscription.status = 'past_due';
    await deliver(stripeEvent('customer.subscription.updated', subscription));
    expect(await current(session)).toMatchObject({ status: 'past_due', canManageBilling: true });
    subscription.status = 'active';
    subscription.cancel_at_period_end = true;
    await deliver(stripeEvent('customer.subscription.updated', subscription));
    expect(await current(session)).toMatchObject({ cancelAtPeriodEnd: true, canManageBilling: true });
    subscription.status = 'canceled';
    await deliver(stripeEvent('customer.subscription.deleted', subscription));
    expect(await current(session)).toMatchObject({ plan: 'free', canManageBilling: false });
  });

  it('does not offer the portal to a user who left Checkout before paying', async () => {
    const session = await registerUser(t.app);
    expect((await api(session, 'POST', '/upgrade', { planId: 'pro' })).statusCode).toBe(200);
    expect(await current(session)).toMatchObject({ plan: 'free', canManageBilling: false });
  });
});
