import Stripe from 'stripe';
import type { StripeSettings } from './billing-settings.ts';

/** What a Checkout for one plan needs. */
export interface CheckoutRequest {
  workspaceId: string;
  planId: string;
  planName: string;
  /** Dollars a month. */
  price: number;
  customerId: string;
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
}

/**
 * The Stripe calls billing makes, through the official SDK. Every write carries an idempotency key chosen by the
 * caller, so a retried request (ours or the SDK's) never creates a second customer, session or change.
 */
export class StripeGateway {
  private readonly client: Stripe;

  constructor(readonly settings: StripeSettings) {
    const url = new URL(settings.apiUrl);
    this.client = new Stripe(settings.secretKey, {
      host: url.hostname,
      port: url.port || (url.protocol === 'http:' ? 80 : 443),
      protocol: url.protocol === 'http:' ? 'http' : 'https',
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
    });
  }

  async createCustomer(workspaceId: string, email: string): Promise<string> {
    const customer = await this.client.customers.create(
      { email, metadata: { workspace_id: workspaceId } },
      { idempotencyKey: `customer-${workspaceId}` },
    );
    return customer.id;
  }

  /** A subscription Checkout Session priced from our catalogue; the subscription carries the user and the plan. */
  async createCheckout(request: CheckoutRequest): Promise<string> {
    const metadata = { workspace_id: request.workspaceId, plan_id: request.planId };
    const session = await this.client.checkout.sessions.create(
      {
        mode: 'subscription',
        customer: request.customerId,
        client_reference_id: request.workspaceId,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: Math.round(request.price * 100),
              recurring: { interval: 'month' },
              product_data: { name: `AdPilot ${request.planName}` },
            },
          },
        ],
        subscription_data: { metadata },
        metadata,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      },
      { idempotencyKey: request.idempotencyKey },
    );
    if (!session.url) throw new Error('Stripe answered a Checkout Session without a url');
    return session.url;
  }

  async createPortal(customerId: string, returnUrl: string, idempotencyKey: string): Promise<string> {
    const session = await this.client.billingPortal.sessions.create(
      { customer: customerId, return_url: returnUrl },
      { idempotencyKey },
    );
    return session.url;
  }

  /** The subscription as Stripe holds it now: what every webhook applies, whatever order events arrive in. */
  retrieveSubscription(subscriptionId: string): Promise<Stripe.Subscription> {
    return this.client.subscriptions.retrieve(subscriptionId);
  }

  cancelAtPeriodEnd(subscriptionId: string, idempotencyKey: string): Promise<Stripe.Subscription> {
    return this.client.subscriptions.update(subscriptionId, { cancel_at_period_end: true }, { idempotencyKey });
  }

  /** Checks the signature on the raw body (and its age: 5 minutes); throws Stripe's verification error. */
  verifyEvent(rawBody: Buffer, signature: string, webhookSecret: string): Stripe.Event {
    return this.client.webhooks.constructEvent(rawBody, signature, webhookSecret);
  }
}

/** One gateway per key: the SDK client keeps its connections. */
export class StripeGateways {
  private cached?: StripeGateway;

  for(settings: StripeSettings): StripeGateway {
    const cached = this.cached;
    if (cached && cached.settings.secretKey === settings.secretKey && cached.settings.apiUrl === settings.apiUrl)
      return cached;
    this.cached = new StripeGateway(settings);
    return this.cached;
  }
}
