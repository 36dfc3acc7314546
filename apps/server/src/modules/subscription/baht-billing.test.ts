import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildInvoice,
  deliverStripeEvent,
  startStripeFake,
  stripeEvent,
  type RunningStripeFake,
} from '../../test/stripe-fake.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { joinAs } from '../../test/workspace-fixtures.ts';

/** Prices in baht through Stripe (ADR 0114): THB Checkout, the operator's price ids, PromptPay on sent invoices. */
const SECRET_KEY = 'sk_test_fake';
const WEBHOOK_SECRET = 'whsec_test_secret_for_baht';

let t: TestApp;
let fake: RunningStripeFake;

beforeAll(async () => {
  fake = await startStripeFake({ secretKey: SECRET_KEY });
  t = await createTestApp(
    {
      STRIPE_PRICES: 'business:THB=price_business_thb,business:USD=price_business_usd',
      BILLING_VAT_REGISTERED: 'true',
      BILLING_VAT_SELLER_NAME: 'AdPilot Co., Ltd.',
      BILLING_VAT_SELLER_ADDRESS: '99 Silom Road; Bangkok 10500',
      BILLING_VAT_SELLER_TAX_ID: '0105561234567',
    },
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
const upgrade = (session: Session, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/subscription/upgrade', headers: session.auth, payload });
const current = async (session: Session) =>
  (await t.app.inject({ method: 'GET', url: '/api/subscription/current', headers: session.auth })).json().data;
const get = (session: Session, url: string) =>
  t.app.inject({ method: 'GET', url: `/api/subscription${url}`, headers: session.auth });
const sent = (path: string) => fake.requests.filter((request) => request.method === 'POST' && request.path === path);

describe('Checkout in baht', () => {
  it('prices Pro at ฿990 in satang, inline from the plan table, and keeps dollars the default', async () => {
    const session = await registerUser(t.app);
    const answer = await upgrade(session, { planId: 'pro', currency: 'THB' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const [checkout] = sent('/v1/checkout/sessions');
    expect(checkout?.params).toMatchObject({
      mode: 'subscription',
      line_items: [{ quantity: '1', price_data: { currency: 'thb', unit_amount: '99000' } }],
      // The buyer's tax details for the receipt.
      billing_address_collection: 'required',
      tax_id_collection: { enabled: 'true' },
      customer_update: { name: 'auto', address: 'auto' },
    });
    expect(checkout?.idempotencyKey).toMatch(/-pro-thb-\d{4}-\d{2}-\d{2}$/);

    await upgrade(session, { planId: 'pro' });
    const dollars = sent('/v1/checkout/sessions')[1];
    expect(dollars?.params).toMatchObject({ line_items: [{ price_data: { currency: 'usd', unit_amount: '2900' } }] });
  });

  it("uses the operator's Stripe price id for the plan and currency when one is set", async () => {
    const session = await registerUser(t.app);
    expect((await upgrade(session, { planId: 'business', currency: 'THB' })).statusCode).toBe(200);
    expect((await upgrade(session, { planId: 'business', currency: 'USD' })).statusCode).toBe(200);
    const [thb, usd] = sent('/v1/checkout/sessions');
    expect(thb?.params.line_items).toEqual([{ quantity: '1', price: 'price_business_thb' }]);
    expect(usd?.params.line_items).toEqual([{ quantity: '1', price: 'price_business_usd' }]);
  });
});

describe('PromptPay', () => {
  it('refuses PromptPay in dollars in the envelope, before calling Stripe', async () => {
    const session = await registerUser(t.app);
    const answer = await upgrade(session, { planId: 'pro', currency: 'USD', paymentMethod: 'promptpay' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(fake.requests).toHaveLength(0);
  });

  it("answers the first invoice's page; the plan applies when that invoice is paid, not before", async () => {
    const session = await registerUser(t.app);
    const answer = await upgrade(session, { planId: 'pro', currency: 'THB', paymentMethod: 'promptpay' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data.url).toMatch(/^https:\/\/invoice\.stripe\.com\/i\//);
    expect(sent('/v1/checkout/sessions')).toHaveLength(0);

    const [price] = sent('/v1/prices');
    expect(price?.params).toMatchObject({ currency: 'thb', unit_amount: '99000', recurring: { interval: 'month' } });
    const [created] = sent('/v1/subscriptions');
    expect(created?.params).toMatchObject({
      collection_method: 'send_invoice',
      days_until_due: '1',
      payment_settings: { payment_method_types: ['promptpay'] },
      metadata: { workspace_id: session.workspaceId, plan_id: 'pro' },
    });
    const subscription = [...fake.subscriptions.values()].find(
      (held) => held.metadata.workspace_id === session.workspaceId,
    );
    if (!subscription?.latest_invoice) throw new Error('the fake holds no invoiced subscription');
    const invoice = fake.invoices.get(subscription.latest_invoice);
    expect(invoice?.status).toBe('open');

    // Stripe calls the invoiced subscription active at once; nothing is paid yet, so the plan stays free.
    const createdEvent = stripeEvent('customer.subscription.created', subscription);
    expect((await deliverStripeEvent(t.app, createdEvent, WEBHOOK_SECRET)).statusCode).toBe(200);
    expect((await current(session)).plan).toBe('free');

    if (invoice) Object.assign(invoice, { status: 'paid', amount_paid: invoice.total });
    const paid = stripeEvent('invoice.paid', { ...invoice, status: 'paid' });
    expect((await deliverStripeEvent(t.app, paid, WEBHOOK_SECRET)).statusCode).toBe(200);
    expect(await current(session)).toMatchObject({ plan: 'pro', provider: 'stripe', status: 'active' });
  });

  it('keeps a later unpaid invoice of a held subscription to Stripe: past due there, not dropped here', async () => {
    const session = await registerUser(t.app);
    await upgrade(session, { planId: 'pro', currency: 'THB', paymentMethod: 'promptpay' });
    const subscription = [...fake.subscriptions.values()].find(
      (held) => held.metadata.workspace_id === session.workspaceId,
    );
    if (!subscription?.latest_invoice) throw new Error('the fake holds no invoiced subscription');
    const first = fake.invoices.get(subscription.latest_invoice);
    if (first) first.status = 'paid';
    await deliverStripeEvent(t.app, stripeEvent('invoice.paid', { ...first }), WEBHOOK_SECRET);
    expect((await current(session)).plan).toBe('pro');

    const next = buildInvoice({ customer: subscription.customer, subscription, currency: 'thb', amount: 99000 });
    next.status = 'open';
    fake.invoices.set(next.id, next);
    subscription.latest_invoice = next.id;
    await deliverStripeEvent(t.app, stripeEvent('customer.subscription.updated', subscription), WEBHOOK_SECRET);
    expect((await current(session)).plan).toBe('pro');
  });
});

/** A payer whose PromptPay month is paid: the invoice Stripe holds and the webhook applied. */
async function paidInBaht() {
  const session = await registerUser(t.app);
  await upgrade(session, { planId: 'pro', currency: 'THB', paymentMethod: 'promptpay' });
  const subscription = [...fake.subscriptions.values()].find(
    (held) => held.metadata.workspace_id === session.workspaceId,
  );
  const invoice = subscription?.latest_invoice ? fake.invoices.get(subscription.latest_invoice) : undefined;
  if (!invoice) throw new Error('the fake holds no invoice');
  Object.assign(invoice, {
    status: 'paid',
    amount_paid: invoice.total,
    customer_name: 'Northwind Coffee Co., Ltd.',
    customer_tax_ids: [{ type: 'th_vat', value: '0105559876543' }],
  });
  invoice.status_transitions.paid_at = Math.floor(Date.now() / 1000);
  await deliverStripeEvent(t.app, stripeEvent('invoice.paid', { ...invoice }), WEBHOOK_SECRET);
  return { session, invoice };
}

describe('receipts', () => {
  it('lists each paid invoice with the VAT inside its price, and answers its PDF in Thai', async () => {
    const { session, invoice } = await paidInBaht();
    const list = await get(session, '/receipts');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([
      {
        id: invoice.id,
        number: invoice.number,
        paidAt: expect.any(String),
        currency: 'THB',
        total: 990,
        vat: { rate: 7, net: 925.23, amount: 64.77 },
      },
    ]);
    const pdf = await get(session, `/receipts/${invoice.id}.pdf?language=th`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="receipt-FAKE-[\w-]+\.pdf"$/);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it("refuses another payer's receipt (404), an open invoice (404), bad input (400) and a non-owner (403)", async () => {
    const { session, invoice } = await paidInBaht();
    const stranger = await paidInBaht();
    expect((await get(stranger.session, `/receipts/${invoice.id}.pdf`)).statusCode).toBe(404);
    invoice.status = 'open';
    expect((await get(session, `/receipts/${invoice.id}.pdf`)).statusCode).toBe(404);
    invoice.status = 'paid';
    expect((await get(session, '/receipts/in_missing.pdf')).statusCode).toBe(404);
    const bad = await get(session, `/receipts/${invoice.id}.pdf?language=fr`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect((await get(session, '/receipts/not-an-invoice.pdf')).statusCode).toBe(400);
    const admin = await joinAs(t, session, session.workspaceId, 'admin');
    const asAdmin = await t.app.inject({
      method: 'GET',
      url: `/api/subscription/receipts/${invoice.id}.pdf`,
      headers: { ...admin.auth, 'x-workspace-id': session.workspaceId },
    });
    expect(asAdmin.statusCode).toBe(403);
    const fresh = await registerUser(t.app);
    // No payment yet: no receipts.
    expect((await get(fresh, '/receipts')).json().data).toEqual([]);
  });
});
