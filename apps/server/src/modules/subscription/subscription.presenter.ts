import { CURRENCIES, PLAN_TABLE, type CurrentSubscription, type Plan, type PlanId } from '@adpilot/contracts';
import type { SubscriptionPlanRow } from '@adpilot/db';
import type { PlanState, PoolFigures } from './plan-limits.ts';

export function presentPlan(row: SubscriptionPlanRow): Plan {
  const entry = PLAN_TABLE.find((plan) => plan.id === row.id);
  return {
    id: row.id as PlanId,
    name: row.name,
    price: row.price,
    prices: CURRENCIES.map((currency) => ({ currency, amount: entry?.prices[currency] ?? row.price })),
    features: row.features,
    limits: {
      adAccounts: row.adAccounts,
      activeRules: row.activeRules,
      aiRequests: row.aiRequests,
      fastestCheckMinutes: row.fastestCheckMinutes,
      backtestDays: row.backtestDays,
      seats: row.seats,
    },
    badge: row.badge,
  };
}

/** What the plan counts, in all its workspaces and in each (ADR 0110). */
export interface Usage {
  pool: PoolFigures;
  byWorkspace: Map<string, PoolFigures>;
}

/** Whether the page offers the billing portal (the service knows how the instance bills), and whose plan it is. */
export interface BillingAccess {
  canManageBilling: boolean;
  assignedByAdmin: boolean;
  paidByYou: boolean;
}

/** Spec §3 Subscription (current). The period end is the provider's, or the end of the usage month (ADR 0061). */
export function presentSubscription(
  { plan, subscription, period, pool }: PlanState,
  usage: Usage,
  { canManageBilling, assignedByAdmin, paidByYou }: BillingAccess,
): CurrentSubscription {
  const periodEnd =
    subscription.provider === 'stripe' && subscription.currentPeriodEnd ? subscription.currentPeriodEnd : period.end;
  const none = { adAccounts: 0, activeRules: 0, aiRequests: 0, seats: 0 };
  return {
    plan: plan.id as PlanId,
    status: subscription.status,
    currentPeriodEnd: periodEnd.toISOString(),
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    provider: subscription.provider,
    canManageBilling,
    assignedByAdmin,
    paidByYou,
    aiRequestsUsed: usage.pool.aiRequests,
    aiRequestsLimit: plan.aiRequests,
    rulesUsed: usage.pool.activeRules,
    rulesLimit: plan.activeRules,
    adAccountsUsed: usage.pool.adAccounts,
    adAccountsLimit: plan.adAccounts,
    pool: {
      limits: {
        adAccounts: plan.adAccounts,
        activeRules: plan.activeRules,
        aiRequests: plan.aiRequests,
        seats: plan.seats,
      },
      used: usage.pool,
    },
    workspaces: pool.workspaces.map((workspace) => ({
      id: workspace.id,
      name: workspace.name,
      personal: workspace.personal,
      used: usage.byWorkspace.get(workspace.id) ?? none,
    })),
  };
}
