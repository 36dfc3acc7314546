import { randomBytes } from 'node:crypto';
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

export interface RunningStripeFake {
  url: string;
  requests: StripeRequest[];
  /** Subscriptions as Stripe holds them now: tests set them to what the next retrieval should answer. */
  subscriptions: Map<string, FakeSubscription>;
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
 * sessions, prices, subscriptions (retrieve and update). Keys are checked (`sk_test_fake`), idempotency keys honoured
 * (the same key answers the first response again), errors in Stripe's `{ error: { type, message } }` shape.
 */
export async function startStripeFake(options: { secretKey?: string } = {}): Promise<RunningStripeFake> {
  const secretKey = options.secretKey ?? 'sk_test_fake';
  const requests: StripeRequest[] = [];
  const subscriptions = new Map<string, FakeSubscription>();
  const replies = new Map<string, { status: number; body: unknown }>();
  let failures = 0;

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
      return { status: 200, body: subscription };
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
}): FakeSubscription {
  const start = options.periodStart ?? new Date();
  const end = options.periodEnd ?? new Date(start.getTime() + 30 * 86_400_000);
  return {
    id: id('sub'),
    object: 'subscription',
    customer: options.customer,
    status: options.status ?? 'active',
    cancel_at_period_end: options.cancelAtPeriodEnd ?? false,
    metadata: { workspace_id: options.workspaceId, plan_id: options.planId },
    items: {
      object: 'list',
      data: [
        {
          id: id('si'),
          object: 'subscription_item',
          current_period_start: Math.floor(start.getTime() / 1000),
          current_period_end: Math.floor(end.getTime() / 1000),
          price: { id: id('price'), unit_amount: 2900 },
        },
      ],
    },
  };
}
