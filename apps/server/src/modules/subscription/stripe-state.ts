import { PLAN_IDS, type PlanId } from '@adpilot/contracts';
import type Stripe from 'stripe';
import type { SubscriptionPatch } from './subscription.repository.ts';

const LIVE = new Set<Stripe.Subscription.Status>(['active', 'trialing']);
const UNPAID = new Set<Stripe.Subscription.Status>(['past_due', 'unpaid']);
const ENDED = new Set<Stripe.Subscription.Status>(['canceled', 'incomplete_expired']);

const seconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : undefined);
const isPlanId = (value: unknown): value is PlanId => PLAN_IDS.includes(value as PlanId);

/** The ids an event points at, and the user it names, whatever the event's type. */
export interface EventRefs {
  workspaceId?: string;
  customerId?: string;
  subscriptionId?: string;
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? undefined);

export function refsOf(event: Stripe.Event): EventRefs {
  const object = event.data.object as unknown as Record<string, unknown>;
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      return {
        workspaceId: session.client_reference_id ?? session.metadata?.workspace_id,
        customerId: idOf(session.customer),
        subscriptionId: idOf(session.subscription),
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      return {
        workspaceId: subscription.metadata?.workspace_id,
        customerId: idOf(subscription.customer),
        subscriptionId: subscription.id,
      };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      // Since API 2025-03-31 the subscription is under `parent`; older webhook versions put it at the top.
      const legacy = (object.subscription ?? undefined) as string | { id: string } | undefined;
      const details = invoice.parent?.subscription_details;
      return {
        workspaceId: details?.metadata?.workspace_id,
        customerId: idOf(invoice.customer),
        subscriptionId: idOf(details?.subscription) ?? idOf(legacy),
      };
    }
    default:
      return {};
  }
}

/** What a Stripe subscription's current state means for ours: a plan, a status and the period; or nothing to do. */
export type StripeOutcome =
  { kind: 'ended' } | { kind: 'live'; planId: PlanId | undefined; patch: SubscriptionPatch } | { kind: 'pending' };

export function outcomeOf(subscription: Stripe.Subscription): StripeOutcome {
  if (ENDED.has(subscription.status)) return { kind: 'ended' };
  if (!LIVE.has(subscription.status) && !UNPAID.has(subscription.status)) return { kind: 'pending' };
  // Periods live on the items since API 2025-03-31; older versions had them on the subscription.
  const item = subscription.items.data[0];
  const legacy = subscription as unknown as { current_period_start?: number; current_period_end?: number };
  const start = seconds(item?.current_period_start ?? legacy.current_period_start);
  const end = seconds(item?.current_period_end ?? legacy.current_period_end);
  const planId = subscription.metadata?.plan_id;
  return {
    kind: 'live',
    planId: isPlanId(planId) ? planId : undefined,
    patch: {
      provider: 'stripe',
      stripeSubscriptionId: subscription.id,
      stripeCustomerId: idOf(subscription.customer) ?? null,
      status: UNPAID.has(subscription.status) ? 'past_due' : 'active',
      cancelAtPeriodEnd: subscription.cancel_at_period_end || Boolean(subscription.cancel_at),
      ...(start ? { currentPeriodStart: start } : {}),
      currentPeriodEnd: end ?? null,
    },
  };
}

/**
 * An invoiced subscription (PromptPay, ADR 0114) is active at Stripe from its creation, before anything is paid: until
 * its first invoice is paid it gives no plan.
 */
export function awaitsFirstPayment(subscription: Stripe.Subscription): boolean {
  const invoice = subscription.latest_invoice;
  return (
    subscription.collection_method === 'send_invoice' &&
    typeof invoice === 'object' &&
    invoice !== null &&
    invoice.status !== 'paid'
  );
}
