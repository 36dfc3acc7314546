import type { Currency } from '@adpilot/contracts';
import Stripe from 'stripe';
import type { StripeSettings } from './billing-settings.ts';

/** The plan's monthly price in one currency: a Stripe price id when the operator made one, else the amount. */
export interface PlanPrice {
  currency: Currency;
  /** Whole units a month (dollars, baht). */
  amount: number;
  priceId?: string;
}

/** What a Checkout for one plan needs. */
export interface CheckoutRequest {
  workspaceId: string;
  planId: string;
  planName: string;
  price: PlanPrice;
  customerId: string;
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
}

/** Stripe's smallest unit: USD and THB both have two decimals (cents, satang). */
const minorUnits = (price: PlanPrice) => Math.round(price.amount * 100);

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
          request.price.priceId
            ? { quantity: 1, price: request.price.priceId }
            : {
                quantity: 1,
                price_data: {
                  currency: request.price.currency.toLowerCase(),
                  unit_amount: minorUnits(request.price),
                  recurring: { interval: 'month' },
                  product_data: { name: `AdPilot ${request.planName}` },
                },
              },
        ],
        // The buyer's name, address and tax id, for the receipt (ADR 0115); kept on the customer for the next one.
        billing_address_collection: 'required',
        tax_id_collection: { enabled: true },
        customer_update: { name: 'auto', address: 'auto' },
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

  /**
   * A subscription whose invoices are sent to the customer and paid from Stripe's invoice page by PromptPay: Checkout
   * takes PromptPay only for one-time payments, and subscriptions take it only with `send_invoice` (ADR 0114). The
   * first invoice is finalized at once and its page's address answered; the plan applies when it is paid.
   */
  async createPromptPaySubscription(request: Omit<CheckoutRequest, 'successUrl' | 'cancelUrl'>): Promise<string> {
    const metadata = { workspace_id: request.workspaceId, plan_id: request.planId };
    const priceId = request.price.priceId ?? (await this.createPrice(request));
    const subscription = await this.client.subscriptions.create(
      {
        customer: request.customerId,
        items: [{ price: priceId, quantity: 1 }],
        collection_method: 'send_invoice',
        days_until_due: 1,
        payment_settings: { payment_method_types: ['promptpay'] },
        metadata,
        expand: ['latest_invoice'],
      },
      { idempotencyKey: `${request.idempotencyKey}-subscription` },
    );
    const invoice = subscription.latest_invoice;
    const invoiceId = typeof invoice === 'string' ? invoice : invoice?.id;
    if (!invoiceId) throw new Error('Stripe answered a subscription without its first invoice');
    const finalized =
      typeof invoice === 'object' && invoice?.status !== 'draft' && invoice?.hosted_invoice_url
        ? invoice
        : await this.client.invoices.finalizeInvoice(invoiceId, {}, { idempotencyKey: `finalize-${invoiceId}` });
    if (!finalized.hosted_invoice_url) throw new Error('Stripe answered an invoice without its page');
    return finalized.hosted_invoice_url;
  }

  /** A monthly price of our catalogue's (the Subscriptions API takes price ids, not inline products). */
  private async createPrice(request: Pick<CheckoutRequest, 'planId' | 'planName' | 'price'>): Promise<string> {
    const price = await this.client.prices.create(
      {
        currency: request.price.currency.toLowerCase(),
        unit_amount: minorUnits(request.price),
        recurring: { interval: 'month' },
        product_data: { name: `AdPilot ${request.planName}` },
        metadata: { plan_id: request.planId },
      },
      { idempotencyKey: `price-${request.planId}-${request.price.currency}-${minorUnits(request.price)}` },
    );
    return price.id;
  }

  /** The customer's paid invoices, newest first (Stripe's order): the receipts. */
  async paidInvoices(customerId: string): Promise<Stripe.Invoice[]> {
    const list = await this.client.invoices.list({ customer: customerId, status: 'paid', limit: 100 });
    return list.data;
  }

  retrieveInvoice(invoiceId: string): Promise<Stripe.Invoice> {
    return this.client.invoices.retrieve(invoiceId);
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
    // The latest invoice says whether an invoiced (PromptPay) subscription's first month is paid yet.
    return this.client.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice'] });
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
