import { describeActivity, SUBSCRIPTION_MESSAGES } from '@adpilot/contracts';
import type { SystemTx, Transactions } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import { AppError } from '../../lib/app-error.ts';
import type { Mailer } from '../../providers/mail/mailer.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { WorkspacesService } from '../workspaces/index.ts';
import type { BillingSettings } from './billing-settings.ts';
import type { StripeGateways } from './stripe-gateway.ts';
import { refsOf } from './stripe-state.ts';
import type { SubscriptionRepository } from './subscription.repository.ts';
import type { SubscriptionService } from './subscription.service.ts';
import type { PlanLimits } from './plan-limits.ts';

/** The events applied; any other is acknowledged and ignored. */
export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

export interface BillingWebhooksDeps {
  transactions: Transactions;
  repository: SubscriptionRepository;
  subscription: Pick<SubscriptionService, 'applyStripeIn' | 'setCustomerIn'>;
  limits: Pick<PlanLimits, 'stateIn'>;
  /** Whether an event's user is one of ours, and their address, from auth (ADR 0066). */
  users: Pick<AuthService, 'emailsIn'>;
  workspaces: Pick<WorkspacesService, 'existsIn' | 'ownerIdsIn'>;
  activity: ActivityRepository;
  billing: BillingSettings;
  gateways: StripeGateways;
  mailer: Mailer;
  log: FastifyBaseLogger;
  now: () => Date;
}

export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored';

/**
 * POST /api/billing/webhook (ADR 0041): the signature is checked on the raw body; each event id is applied once, in
 * the same unit of work as its effect; and every event about a subscription applies that subscription's state as
 * Stripe holds it now (read back), so events arriving late or out of order cannot undo a newer state.
 */
export class BillingWebhooks {
  constructor(private readonly deps: BillingWebhooksDeps) {}

  /** Whose subscription a Stripe event is about: the workspace it names (if it exists) or the holder of its ids. */
  private async ownerIn(
    tx: SystemTx,
    refs: { workspaceId?: string; customerId?: string; subscriptionId?: string },
  ): Promise<string | undefined> {
    if (
      refs.workspaceId &&
      /^[0-9a-f-]{36}$/i.test(refs.workspaceId) &&
      (await this.deps.workspaces.existsIn(tx, refs.workspaceId))
    )
      return refs.workspaceId;
    return this.deps.repository.findStripeHolder(tx, refs);
  }

  async receive(rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
    const settings = this.deps.billing();
    if (!settings?.webhookSecret) throw AppError.notFound('Stripe webhooks are not configured');
    const stripe = this.deps.gateways.for(settings);
    let event: Stripe.Event;
    try {
      if (!signature) throw new Error('missing signature');
      event = stripe.verifyEvent(rawBody, signature, settings.webhookSecret);
    } catch {
      throw new AppError('WEBHOOK_SIGNATURE_INVALID', SUBSCRIPTION_MESSAGES.webhookSignature, 400);
    }
    if (!HANDLED_EVENTS.has(event.type)) return 'ignored';

    const refs = refsOf(event);
    const owner = await this.deps.transactions.system('stripe webhook owner', (tx) => this.ownerIn(tx, refs));
    if (!owner) {
      // Not about one of our users (another product on the same account): acknowledge once, change nothing.
      const fresh = await this.deps.transactions.system('stripe webhook without owner', (tx) =>
        this.deps.repository.claimEvent(tx, event.id, event.type, null),
      );
      return fresh ? 'ignored' : 'duplicate';
    }
    // Read before the unit of work: no transaction stays open across a call to Stripe.
    const current = refs.subscriptionId ? await stripe.retrieveSubscription(refs.subscriptionId) : undefined;

    const result = await this.deps.transactions.tenant({ workspaceId: owner, userId: null }, async (tx) => {
      if (!(await this.deps.repository.claimEvent(tx, event.id, event.type, owner)))
        return { outcome: 'duplicate' as const };
      if (event.type === 'checkout.session.completed' && refs.customerId) {
        const state = await this.deps.limits.stateIn(tx, { forUpdate: true });
        await this.deps.subscription.setCustomerIn(tx, state, refs.customerId);
      }
      const state = current ? await this.deps.subscription.applyStripeIn(tx, current) : undefined;
      if (event.type !== 'invoice.payment_failed' || !state) return { outcome: 'applied' as const };
      const until = state.subscription.currentPeriodEnd ?? state.period.end;
      const params = { plan: state.plan.id, until: until.toISOString().slice(0, 10) };
      await this.deps.activity.insert(tx, {
        level: 'error',
        category: 'billing',
        description: describeActivity('payment_failed', params),
        metadata: { code: 'payment_failed', params },
      });
      return {
        outcome: 'applied' as const,
        notify: { plan: state.plan.name, until },
      };
    });

    if ('notify' in result && result.notify) {
      const { plan, until } = result.notify;
      // The bill is the owners': each of them hears of the failure.
      const emails = await this.deps.transactions.system('payment failure mail', async (tx) =>
        this.deps.users.emailsIn(tx, await this.deps.workspaces.ownerIdsIn(tx, owner)),
      );
      for (const email of emails)
        await this.deps.mailer
          .send({
            to: email,
            subject: 'AdPilot: your payment failed',
            text:
              `We could not take the payment for your ${plan} plan. Your plan stays active until ` +
              `${until.toUTCString()}. Update your payment method on the Subscription page to keep it.`,
            expiresAt: until,
          })
          .catch((error: unknown) => this.deps.log.warn({ err: error }, 'payment failure mail not sent'));
    }
    return result.outcome;
  }
}
