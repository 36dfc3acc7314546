import type { CurrentSubscription, Plan, PlanId } from '@adpilot/contracts';
import type { SubscriptionPlanRow } from '@adpilot/db';
import type { PlanState } from './plan-limits.ts';

export function presentPlan(row: SubscriptionPlanRow): Plan {
  return {
    id: row.id as PlanId,
    name: row.name,
    price: row.price,
    features: row.features,
    limits: {
      adAccounts: row.adAccounts,
      activeRules: row.activeRules,
      aiRequests: row.aiRequests,
      fastestCheckMinutes: row.fastestCheckMinutes,
      seats: row.seats,
    },
    badge: row.badge,
  };
}

export interface Usage {
  aiRequests: number;
  activeRules: number;
  adAccounts: number;
}

/** Whether the page offers the billing portal (the service knows how the instance bills). */
export interface BillingAccess {
  canManageBilling: boolean;
  assignedByAdmin: boolean;
}

/** Spec §3 Subscription (current). The period end is the provider's, or the end of the usage month (ADR 0061). */
export function presentSubscription(
  { plan, subscription, period }: PlanState,
  usage: Usage,
  { canManageBilling, assignedByAdmin }: BillingAccess,
): CurrentSubscription {
  const periodEnd =
    subscription.provider === 'stripe' && subscription.currentPeriodEnd ? subscription.currentPeriodEnd : period.end;
  return {
    plan: plan.id as PlanId,
    status: subscription.status,
    currentPeriodEnd: periodEnd.toISOString(),
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    provider: subscription.provider,
    canManageBilling,
    assignedByAdmin,
    aiRequestsUsed: usage.aiRequests,
    aiRequestsLimit: plan.aiRequests,
    rulesUsed: usage.activeRules,
    rulesLimit: plan.activeRules,
    adAccountsUsed: usage.adAccounts,
    adAccountsLimit: plan.adAccounts,
  };
}
