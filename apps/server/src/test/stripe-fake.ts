import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { startLocalServer } from './fakes/http-fake.ts';

/** One request as the fake received it: the form body decoded into nested objects, as Stripe reads it. */
export interface StripeRequest {
  method: string;
  path: string;
  authorization?: string;
  idempotencyKey?: string;
  stripeVersion?: string;
  params: Record<string, unknown>;
}

export interface FakeSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  collection_method: 'charge_automatically' | 'send_invoice';
  /** An invoice id; a retrieval that asks to expand it answers the invoice. */
  latest_invoice: string | null;
  metadata: Record<string, string>;
  items: {
    object: 'list';
    data: {
      id: string;
      object: 'subscription_item';
      current_period_start: number;
      current_period_end: number;
      price: { id: string; unit_amount: number };
    }[];
  };
}

/** An invoice as Stripe answers it (the fields billing reads; amounts in the currency's minor unit). */
export interface FakeInvoice {
  id: string;
  object: 'invoice';
  customer: string;
  number: string | null;
  status: 'draft' | 'open' | 'paid' | 'void';
  collection_method: 'charge_automatically' | 'send_invoice';
  currency: string;
  total: number;
  amount_paid: number;
  created: number;
  status_transitions: { finalized_at: number | null; paid_at: number | null };
  hosted_invoice_url: string | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_address: {
    line1: string | null;
    line2: string | null;
    city: string | null;
    state: string | null;
    postal_code: string | null;
    country: string | null;
  } | null;
  customer_tax_ids: { type: string; value: string }[];
  lines: {
    object: 'list';
    data: {
      id: string;
      object: 'line_item';
      description: string;
      amount: number;
      currency: string;
      period: { start: number; end: number };
    }[];
  };
  parent: {
    type: 'subscription_details';
    subscription_details: { subscription: string; metadata: Record<string, string> };
  } | null;
}

export interface RunningStripeFake {
  url: string;
  requests: StripeRequest[];
  /** Subscriptions as Stripe holds them now: tests set them to what the next retrieval should answer. */
  subscriptions: Map<string, FakeSubscription>;
  /** Invoices as Stripe holds them now (listed by customer and status, finalized, expanded on a subscription). */
  invoices: Map<string, FakeInvoice>;
  /** Answers the next N writes with a 500 (Stripe's api_error), to test retries and failures. */
  failNext(count: number): void;
  close(): Promise<void>;
}

/** `a[b][0][c]=1` → `{ a: { b: [ { c: '1' } ] } }`: Stripe's form encoding of nested parameters. */
export function decodeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Record<string, unknown> = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        node[part] = value;
        return;
      }
      node[part] ??= /^\d+$/.test(path[index + 1] ?? '') ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

/**
 * A local server speaking Stripe's wire format for what billing uses: customers, Checkout Sessions, billing portal
 * sessions, prices (create), subscriptions (create, retrieve with `expand`, update), invoices (list by customer and
 * status, retrieve, finalize). Keys are checked (`sk_test_fake`), idempotency keys honoured
 * (the same key answers the first response again), errors in Stripe's `{ error: { type, message } }` shape.
 */
export async function startStripeFake(options: { secretKey?: string } = {}): Promise<RunningStripeFake> {
  const secretKey = options.secretKey ?? 'sk_test_fake';
  const requests: StripeRequest[] = [];
  const subscriptions = new Map<string, FakeSubscription>();
  const invoices = new Map<string, FakeInvoice>();
  const prices = new Map<string, { id: string; currency: string; unit_amount: number; product: string }>();
  const replies = new Map<string, { status: number; body: unknown }>();
  let failures = 0;

  const missing = (kind: string, value: string | undefined) => ({
    status: 404,
    body: {
      error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${value}'` },
    },
  });

  /** `expand[]=latest_invoice`: the invoice object in place of its id, as Stripe answers it. */
  const withExpanded = (subscription: FakeSubscription, params: Record<string, unknown>) => {
    const expand = Array.isArray(params.expand) ? params.expand : [];
    if (!expand.includes('latest_invoice') || !subscription.latest_invoice) return subscription;
    return { ...subscription, latest_invoice: invoices.get(subscription.latest_invoice) ?? null };
  };

  /** A subscription from a price id; `send_invoice` leaves its first invoice a draft (Stripe finalizes it later). */
  const createSubscription = (params: Record<string, unknown>) => {
    const items = (params.items as { price?: string; quantity?: string }[] | undefined) ?? [];
    const price = prices.get(items[0]?.price ?? '');
    if (!price) return missing('price', items[0]?.price);
    const customer = String(params.customer);
    const metadata = (params.metadata as Record<string, string> | undefined) ?? {};
    const subscription = buildSubscription({
      customer,
      workspaceId: metadata.workspace_id ?? '',
      planId: metadata.plan_id ?? '',
      unitAmount: price.unit_amount,
    });
    subscription.metadata = metadata;
    subscription.collection_method =
      params.collection_method === 'send_invoice' ? 'send_invoice' : 'charge_automatically';
    const invoice = buildInvoice({
      customer,
      subscription,
      currency: price.currency,
      amount: price.unit_amount,
      status: subscription.collection_method === 'send_invoice' ? 'draft' : 'paid',
    });
    invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    subscriptions.set(subscription.id, subscription);
    return { status: 200, body: withExpanded(subscription, params) };
  };

  const handle = (request: StripeRequest): { status: number; body: unknown } => {
    if (request.authorization !== `Bearer ${secretKey}`)
      return {
        status: 401,
        body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } },
      };
    if (request.method === 'POST' && failures > 0) {
      failures -= 1;
      return { status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred' } } };
    }
    const params = request.params;
    const path = request.path.split('?')[0] ?? '';
    if (request.method === 'POST' && path === '/v1/customers')
      return {
        status: 200,
        body: { id: id('cus'), object: 'customer', email: params.email ?? null, metadata: params.metadata ?? {} },
      };
    if (request.method === 'POST' && path === '/v1/checkout/sessions') {
      const session = id('cs_test');
      return {
        status: 200,
        body: {
          id: session,
          object: 'checkout.session',
          mode: params.mode,
          customer: params.customer ?? null,
          client_reference_id: params.client_reference_id ?? null,
          url: `https://checkout.stripe.com/c/pay/${session}`,
          metadata: params.metadata ?? {},
        },
      };
    }
    if (request.method === 'POST' && path === '/v1/billing_portal/sessions')
      return {
        status: 200,
        body: {
          id: id('bps'),
          object: 'billing_portal.session',
          customer: params.customer,
          url: `https://billing.stripe.com/p/session/${id('test')}`,
          return_url: params.return_url,
        },
      };
    if (request.method === 'POST' && path === '/v1/prices') {
      const price = {
        id: id('price'),
        currency: String(params.currency),
        unit_amount: Number(params.unit_amount),
        product: id('prod'),
      };
      prices.set(price.id, price);
      return { status: 200, body: { ...price, object: 'price', recurring: params.recurring ?? null } };
    }
    if (request.method === 'POST' && path === '/v1/subscriptions') return createSubscription(params);
    if (request.method === 'GET' && path === '/v1/invoices') {
      const data = [...invoices.values()]
        .filter(
          (invoice) => invoice.customer === params.customer && (!params.status || invoice.status === params.status),
        )
        .sort((a, b) => b.created - a.created);
      return { status: 200, body: { object: 'list', url: '/v1/invoices', has_more: false, data } };
    }
    const invoiceMatch = /^\/v1\/invoices\/([^/]+?)(\/finalize)?$/.exec(path);
    if (invoiceMatch) {
      const invoice = invoices.get(invoiceMatch[1] ?? '');
      if (!invoice) return missing('invoice', invoiceMatch[1]);
      if (invoiceMatch[2] && request.method === 'POST') {
        if (invoice.status !== 'draft')
          return {
            status: 400,
            body: { error: { type: 'invalid_request_error', message: 'This invoice is already finalized' } },
          };
        invoice.status = 'open';
        invoice.number = `FAKE-${String(invoices.size).padStart(4, '0')}`;
        invoice.status_transitions.finalized_at = Math.floor(Date.now() / 1000);
        invoice.hosted_invoice_url = `https://invoice.stripe.com/i/acct_fake/test_${invoice.id}`;
      }
      return { status: 200, body: invoice };
    }
    const match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (match) {
      const subscription = subscriptions.get(match[1] ?? '');
      if (!subscription)
        return {
          status: 404,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `No such subscription: '${match[1]}'`,
            },
          },
        };
      if (request.method === 'POST') {
        if (params.cancel_at_period_end !== undefined)
          subscription.cancel_at_period_end = params.cancel_at_period_end === 'true';
        if (params.metadata)
          subscription.metadata = { ...subscription.metadata, ...(params.metadata as Record<string, string>) };
        const items = params.items as { id?: string; price_data?: { unit_amount?: string } }[] | undefined;
        const item = subscription.items.data[0];
        if (items?.[0]?.price_data?.unit_amount && item)
          item.price = { id: id('price'), unit_amount: Number(items[0].price_data.unit_amount) };
      }
      return { status: 200, body: withExpanded(subscription, params) };
    }
    return {
      status: 404,
      body: {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path})` },
      },
    };
  };

  const server = await startLocalServer((incoming, body, response) => {
    const header = (name: string) => {
      const value = incoming.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const url = incoming.url ?? '/';
    const request: StripeRequest = {
      method: incoming.method ?? 'GET',
      path: url,
      authorization: header('authorization'),
      idempotencyKey: header('idempotency-key'),
      stripeVersion: header('stripe-version'),
      params: decodeForm(incoming.method === 'GET' ? (url.split('?')[1] ?? '') : body),
    };
    requests.push(request);
    const key = request.idempotencyKey ? `${request.method} ${request.idempotencyKey}` : undefined;
    const answer = (key && replies.get(key)) || handle(request);
    if (key && answer.status < 500) replies.set(key, answer);
    response.writeHead(answer.status, {
      'content-type': 'application/json',
      'request-id': id('req'),
      ...(key && replies.has(key) ? { 'idempotency-key': request.idempotencyKey ?? '' } : {}),
    });
    response.end(JSON.stringify(answer.body));
  });
  return {
    ...server,
    requests,
    subscriptions,
    invoices,
    failNext(count) {
      failures = count;
    },
  };
}

/** A subscription as Stripe would hold it after a Checkout for `planId` (prices in cents). */
export function buildSubscription(options: {
  customer: string;
  workspaceId: string;
  planId: string;
  status?: string;
  periodStart?: Date;
  periodEnd?: Date;
  cancelAtPeriodEnd?: boolean;
  /** The price in minor units (cents, satang). */
  unitAmount?: number;
}): FakeSubscription {
  const start = options.periodStart ?? new Date();
  const end = options.periodEnd ?? new Date(start.getTime() + 30 * 86_400_000);
  return {
    id: id('sub'),
    object: 'subscription',
    customer: options.customer,
    status: options.status ?? 'active',
    cancel_at_period_end: options.cancelAtPeriodEnd ?? false,
    collection_method: 'charge_automatically',
    latest_invoice: null,
    metadata: { workspace_id: options.workspaceId, plan_id: options.planId },
    items: {
      object: 'list',
      data: [
        {
          id: id('si'),
          object: 'subscription_item',
          current_period_start: Math.floor(start.getTime() / 1000),
          current_period_end: Math.floor(end.getTime() / 1000),
          price: { id: id('price'), unit_amount: options.unitAmount ?? 2900 },
        },
      ],
    },
  };
}

/** An invoice of `subscription`'s current period, as Stripe bills it (amounts in minor units). */
export function buildInvoice(options: {
  customer: string;
  subscription: FakeSubscription;
  currency: string;
  amount: number;
  status?: FakeInvoice['status'];
  paidAt?: Date;
  customerName?: string;
  customerAddress?: FakeInvoice['customer_address'];
  customerTaxIds?: FakeInvoice['customer_tax_ids'];
  description?: string;
}): FakeInvoice {
  const item = options.subscription.items.data[0];
  const status = options.status ?? 'paid';
  const paidAt = status === 'paid' ? Math.floor((options.paidAt ?? new Date()).getTime() / 1000) : null;
  const invoiceId = id('in');
  return {
    id: invoiceId,
    object: 'invoice',
    customer: options.customer,
    number: status === 'draft' ? null : `FAKE-${invoiceId.slice(-4).toUpperCase()}`,
    status,
    collection_method: options.subscription.collection_method,
    currency: options.currency,
    total: options.amount,
    amount_paid: status === 'paid' ? options.amount : 0,
    created: paidAt ?? Math.floor(Date.now() / 1000),
    status_transitions: { finalized_at: status === 'draft' ? null : (paidAt ?? null), paid_at: paidAt },
    hosted_invoice_url: status === 'draft' ? null : `https://invoice.stripe.com/i/acct_fake/test_${invoiceId}`,
    customer_name: options.customerName ?? null,
    customer_email: null,
    customer_address: options.customerAddress ?? null,
    customer_tax_ids: options.customerTaxIds ?? [],
    lines: {
      object: 'list',
      data: [
        {
          id: id('il'),
          object: 'line_item',
          description: options.description ?? `1 × AdPilot ${options.subscription.metadata.plan_id}`,
          amount: options.amount,
          currency: options.currency,
          period: { start: item?.current_period_start ?? 0, end: item?.current_period_end ?? 0 },
        },
      ],
    },
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: options.subscription.id, metadata: options.subscription.metadata },
    },
  };
}

let eventCounter = 0;

/** A Stripe event around `object`, as a webhook delivers it. */
export function stripeEvent(type: string, object: object, id = `evt_test_${(eventCounter += 1)}_${Date.now()}`) {
  return {
    id,
    object: 'event',
    type,
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    data: { object },
  };
}

/** Delivers an event to the app's webhook the way Stripe does: the JSON body and its Stripe-Signature header. */
export function deliverStripeEvent(
  app: FastifyInstance,
  body: object,
  webhookSecret: string,
  /** `signature`: this header instead of a good one (null: none); `timestamp`: the signature's, in seconds. */
  options: { signature?: string | null; timestamp?: number } = {},
) {
  const payload = JSON.stringify(body);
  const signature =
    options.signature === undefined
      ? new Stripe('sk_test_signer').webhooks.generateTestHeaderString({
          payload,
          secret: webhookSecret,
          timestamp: options.timestamp,
        })
      : options.signature;
  return app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
    payload,
  });
}
