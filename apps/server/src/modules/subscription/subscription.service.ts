import {
  describeActivity,
  SUBSCRIPTION_MESSAGES,
  type CurrentSubscription,
  type Plan,
  PLAN_TABLE,
  type PlanId,
  type UpgradeRequest,
  type UpgradeResponse,
} from '@adpilot/contracts';
import type { SystemTx, TenantTx, Transactions, TenantScope } from '@adpilot/db';
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { AppError } from '../../lib/app-error.ts';
import { workspaceJob } from '../../lib/scope.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { AdAccountsService } from '../ad-accounts/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { RulesService } from '../rules/index.ts';
import { asCap, type PlanLimits, type PlanState } from './plan-limits.ts';
import { presentPlan, presentSubscription } from './subscription.presenter.ts';
import type { SubscriptionPatch, SubscriptionRepository } from './subscription.repository.ts';
import type { BillingSettings } from './billing-settings.ts';
import type { StripeGateway, StripeGateways } from './stripe-gateway.ts';
import { awaitsFirstPayment, outcomeOf } from './stripe-state.ts';

export interface SubscriptionServiceDeps {
  transactions: Transactions;
  repository: SubscriptionRepository;
  limits: PlanLimits;
  rules: Pick<RulesService, 'deactivateBeyondLimit' | 'slowToPlan' | 'countActiveIn'>;
  /** What the plan counts of the ad accounts module (ADR 0066). */
  accounts: Pick<AdAccountsService, 'countIn'>;
  /** The user's address, from auth (ADR 0066). */
  users: Pick<AuthService, 'emailIn'>;
  activity: ActivityRepository;
  /** Stripe when configured (asked at every call), local billing otherwise. */
  billing: BillingSettings;
  /**
   * Whether users choose their own plan under local billing: only on the sandbox demo (asked at every call). Elsewhere
   * the instance administrator assigns plans (ADR 0087).
   */
  selfService: () => boolean;
  gateways: StripeGateways;
  /** Where Checkout and the billing portal send the user back. */
  publicUrl: string;
  /** Stripe price ids keyed `plan:CURRENCY` (ADR 0114); without one a price is made from the plan table. */
  stripePrices: Record<string, string>;
  now: () => Date;
}

/** A refusal of Stripe's (network, keys, a 5xx) as our 502, without its internals. */
export async function throughStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('BILLING_PROVIDER_ERROR', SUBSCRIPTION_MESSAGES.stripeUnavailable, 502);
  }
}

/** Only the plan's payer changes it or reads its payments; a pool whose payer is gone, its workspace's owners. */
export function refuseUnlessPayer(state: PlanState, scope: TenantScope): void {
  const payer = state.pool.payerId;
  if (payer && scope.userId && payer !== scope.userId)
    throw new AppError('PLAN_NOT_PAYER', SUBSCRIPTION_MESSAGES.notPayer, 403);
}

/** Spec §7 Subscription: the current plan with its usage, the catalogue, upgrade and cancel (local provider). */
export class SubscriptionService {
  constructor(private readonly deps: SubscriptionServiceDeps) {}

  async plans(scope: TenantScope): Promise<Plan[]> {
    return this.deps.transactions.tenant(scope, async (tx) =>
      [...(await this.deps.limits.plans(tx)).values()].map(presentPlan),
    );
  }

  async current(scope: TenantScope): Promise<CurrentSubscription> {
    return this.deps.transactions.tenant(scope, async (tx) =>
      this.presentIn(tx, await this.deps.limits.stateIn(tx), scope.userId),
    );
  }

  /**
   * A plan is its payer's (ADR 0110): another owner of one of its workspaces sees it but does not change it. A pool
   * whose payer is gone is changed by the workspace's owners.
   */
  private payerOnly(state: PlanState, scope: TenantScope): void {
    refuseUnlessPayer(state, scope);
  }

  /**
   * Local billing: the chosen plan applies at once (spec FAQ), in the same usage month (ADR 0061). Stripe: a paid plan
   * without a Stripe subscription answers a Checkout address (the plan applies when its webhook arrives); with
   * one, the billing portal, where the plan is changed; the free plan cancels at the period's end.
   */
  async upgrade(scope: TenantScope, request: UpgradeRequest): Promise<UpgradeResponse> {
    const { planId } = request;
    const stripe = this.stripe();
    if (stripe) return this.upgradeThroughStripe(stripe, scope, request);
    this.refuseUnlessSelfService();
    return this.deps.transactions.tenant(scope, async (tx) => {
      const state = await this.deps.limits.stateIn(tx, { forUpdate: true });
      this.payerOnly(state, scope);
      if (state.plan.id === planId) throw new AppError('SUBSCRIPTION_SAME_PLAN', SUBSCRIPTION_MESSAGES.samePlan, 409);
      const next = await this.changePlanIn(tx, state, planId, {
        currentPeriodStart: this.deps.now(),
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        status: 'active',
      });
      return { subscription: await this.presentIn(tx, next, scope.userId) };
    });
  }

  /** Local billing: back to the free plan at once. Stripe: the subscription ends with the period already paid. */
  async cancel(scope: TenantScope): Promise<{ subscription: CurrentSubscription }> {
    const stripe = this.stripe();
    const current = await this.deps.limits.state(scope);
    this.payerOnly(current, scope);
    if (current.plan.id === 'free')
      throw new AppError('SUBSCRIPTION_NOT_CANCELABLE', SUBSCRIPTION_MESSAGES.alreadyFree, 409);
    const subscriptionId = current.subscription.stripeSubscriptionId;
    if (stripe && subscriptionId) {
      const updated = await throughStripe(() => stripe.cancelAtPeriodEnd(subscriptionId, `cancel-${subscriptionId}`));
      return this.deps.transactions.tenant(scope, async (tx) => ({
        subscription: await this.presentIn(tx, await this.applyStripeIn(tx, updated), scope.userId),
      }));
    }
    this.refuseUnlessSelfService();
    return this.deps.transactions.tenant(scope, async (tx) => {
      const state = await this.deps.limits.stateIn(tx, { forUpdate: true });
      if (state.plan.id === 'free')
        throw new AppError('SUBSCRIPTION_NOT_CANCELABLE', SUBSCRIPTION_MESSAGES.alreadyFree, 409);
      const next = await this.changePlanIn(tx, state, 'free', {
        currentPeriodStart: this.deps.now(),
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        status: 'active',
      });
      return { subscription: await this.presentIn(tx, next, scope.userId) };
    });
  }

  /** Local billing outside the sandbox demo: a plan is the administrator's to assign, not the user's to choose. */
  private refuseUnlessSelfService(): void {
    if (!this.deps.selfService()) throw new AppError('PLAN_CHANGE_BY_ADMIN', SUBSCRIPTION_MESSAGES.planByAdmin, 403);
  }

  /** Whether plans are the instance administrator's to assign: local billing, outside the sandbox demo. */
  assignedByAdmin(): boolean {
    return this.deps.billing() === undefined && !this.deps.selfService();
  }

  /**
   * The instance administrator sets a workspace's plan (local billing only, ADR 0087), at once, like a local upgrade;
   * the workspace's log says which administrator did. Workspaces' own unit of work: the administrator need not be
   * a member.
   */
  async assignPlan(admin: { id: string; name: string }, workspaceId: string, planId: PlanId): Promise<void> {
    if (this.deps.billing()) throw AppError.conflict(SUBSCRIPTION_MESSAGES.assignedThroughStripe, 'INVALID_STATE');
    await this.deps.transactions.tenant(workspaceJob(workspaceId), async (tx) => {
      const state = await this.deps.limits.stateIn(tx, { forUpdate: true });
      if (state.plan.id === planId) throw new AppError('SUBSCRIPTION_SAME_PLAN', SUBSCRIPTION_MESSAGES.samePlan, 409);
      await this.changePlanIn(
        tx,
        state,
        planId,
        { currentPeriodStart: this.deps.now(), currentPeriodEnd: null, cancelAtPeriodEnd: false, status: 'active' },
        admin,
      );
    });
  }

  /** The plan of each of these workspaces (the administrator's list); a workspace without a row is on the free plan. */
  async plansOfIn(tx: SystemTx, workspaceIds: readonly string[]): Promise<Map<string, PlanId>> {
    return this.deps.limits.planIdsOf(tx, workspaceIds);
  }

  /**
   * Moves the subscription to `planId` in the caller's unit of work, logs the change, and on a downgrade switches
   * off the newest active rules beyond the new limit, then slows the active rules checking more often than the plan
   * allows to its fastest check, each with an entry saying which (data is kept). Used by every provider: local at
   * once, Stripe from its webhooks, the administrator's assignment (`admin`, named in the entry). The caller holds
   * the subscription row for update.
   */
  async changePlanIn(
    tx: TenantTx,
    state: PlanState,
    planId: string,
    patch: SubscriptionPatch,
    admin?: { id: string; name: string },
  ): Promise<PlanState> {
    const now = this.deps.now();
    const plan = (await this.deps.limits.plans(tx)).get(planId);
    if (!plan) throw new Error(`plan ${planId} is not in the catalogue`);
    const holderId = state.subscription.workspaceId;
    await this.deps.repository.withinSystem(tx, 'plan change', (system) =>
      this.deps.repository.update(system, holderId, { ...patch, planId }, now),
    );
    const next = await this.deps.limits.stateIn(tx);
    if (state.plan.id !== planId) {
      // A plan change keeps the month's AI requests; a new Stripe period of the same plan starts its own count.
      await this.deps.repository.withinSystem(tx, 'plan change', (system) =>
        this.deps.limits.carryAiRequestsIn(system, holderId, state.period, next.period),
      );
      await this.deps.activity.insert(
        tx,
        admin
          ? {
              level: 'info',
              category: 'billing',
              description: `Plan changed from ${state.plan.name} to ${plan.name} by the administrator ${admin.name}`,
              metadata: {
                code: 'plan_assigned',
                params: { from: state.plan.id, to: plan.id, admin: admin.name },
                adminId: admin.id,
              },
            }
          : {
              level: 'info',
              category: 'billing',
              description: `Plan changed from ${state.plan.name} to ${plan.name}`,
              metadata: { code: 'plan_changed', params: { from: state.plan.id, to: plan.id } },
            },
      );
    }
    await this.deps.repository.withinSystem(tx, 'plan change across its workspaces', (system) =>
      this.fitPoolIn(system, next),
    );
    return next;
  }

  /**
   * Fits every workspace of the plan to it (ADR 0110), each with entries in its own log saying which rules changed
   * (data is kept): the active rules beyond the pooled limit are switched off, the oldest workspace (the payer's
   * own first) keeping its rules first and, within a workspace, the oldest rules; the active rules checking more
   * often than the plan allows now run as often as it allows (ADR 0053).
   */
  async fitPoolIn(system: SystemTx, state: PlanState): Promise<void> {
    const { plan } = state;
    let left = asCap(plan.activeRules);
    for (const workspace of state.pool.workspaces) {
      const tx = this.deps.repository.asWorkspace(system, workspace.id);
      const switchedOff = await this.deps.rules.deactivateBeyondLimit(tx, left);
      if (switchedOff.length > 0) {
        const names = switchedOff.map((rule) => rule.name);
        const params = { plan: plan.id, limit: plan.activeRules, count: names.length };
        await this.deps.activity.insert(tx, {
          level: 'warning',
          category: 'billing',
          description: describeActivity('plan_rules_deactivated', { ...params, rules: names.join(', ') }),
          metadata: {
            code: 'plan_rules_deactivated',
            params: { ...params, rules: names },
            ruleIds: switchedOff.map((rule) => rule.id),
          },
        });
      }
      if (Number.isFinite(left)) left = Math.max(0, left - (await this.deps.rules.countActiveIn(tx)));
      const slowed = await this.deps.rules.slowToPlan(tx, plan.fastestCheckMinutes);
      if (slowed.length > 0) {
        const names = slowed.map((rule) => rule.name);
        const params = { plan: plan.id, minutes: plan.fastestCheckMinutes, count: names.length };
        await this.deps.activity.insert(tx, {
          level: 'warning',
          category: 'billing',
          description: describeActivity('plan_rules_slowed', { ...params, rules: names.join(', ') }),
          metadata: {
            code: 'plan_rules_slowed',
            params: { ...params, rules: names },
            ruleIds: slowed.map((rule) => rule.id),
          },
        });
      }
    }
  }

  /**
   * The Stripe billing portal (payment methods, invoices, plan changes) for a user who has a Stripe customer. Local
   * billing has no portal (409 `BILLING_PORTAL_LOCAL`), nor has a user Stripe does not know yet (409
   * `BILLING_PORTAL_NO_ACCOUNT`).
   */
  async portal(scope: TenantScope): Promise<{ url: string }> {
    const stripe = this.stripe();
    if (!stripe) throw AppError.conflict(SUBSCRIPTION_MESSAGES.portalLocal, 'BILLING_PORTAL_LOCAL');
    const state = await this.deps.limits.state(scope);
    this.payerOnly(state, scope);
    const customerId = state.subscription.stripeCustomerId;
    if (!customerId) throw AppError.conflict(SUBSCRIPTION_MESSAGES.portalUnavailable, 'BILLING_PORTAL_NO_ACCOUNT');
    const url = await throughStripe(() =>
      stripe.createPortal(customerId, `${this.deps.publicUrl}/subscription`, `portal-${randomUUID()}`),
    );
    return { url };
  }

  /**
   * Applies a Stripe subscription's current state to the user's, in the caller's unit of work: its plan, status,
   * period and cancel-at-period-end; an ended subscription (the one we hold) returns the user to the free plan.
   * State from an older subscription of the user's is ignored.
   */
  async applyStripeIn(tx: TenantTx, stripeSubscription: Stripe.Subscription): Promise<PlanState> {
    const state = await this.deps.limits.stateIn(tx, { forUpdate: true });
    const held = state.subscription.stripeSubscriptionId;
    if (held && held !== stripeSubscription.id) {
      const current = outcomeOf(stripeSubscription);
      // A new live subscription replaces the one we hold only if ours has ended; anything else is history.
      if (current.kind !== 'live' || state.subscription.planId !== 'free') return state;
    }
    const outcome = outcomeOf(stripeSubscription);
    if (outcome.kind === 'pending') return state;
    if (outcome.kind === 'live' && held !== stripeSubscription.id && awaitsFirstPayment(stripeSubscription))
      return state;
    if (outcome.kind === 'ended') {
      if (held !== stripeSubscription.id) return state;
      return this.changePlanIn(tx, state, 'free', {
        stripeSubscriptionId: null,
        status: 'active',
        cancelAtPeriodEnd: false,
        currentPeriodStart: this.deps.now(),
        currentPeriodEnd: null,
      });
    }
    return this.changePlanIn(tx, state, outcome.planId ?? state.plan.id, outcome.patch);
  }

  private stripe(): StripeGateway | undefined {
    const settings = this.deps.billing();
    return settings ? this.deps.gateways.for(settings) : undefined;
  }

  private async upgradeThroughStripe(
    stripe: StripeGateway,
    scope: TenantScope,
    { planId, currency = 'USD', paymentMethod = 'card' }: UpgradeRequest,
  ): Promise<UpgradeResponse> {
    const { plan, subscription, customerId, email, held, holderId } = await this.deps.transactions.tenant(
      scope,
      async (tx) => {
        const state = await this.deps.limits.stateIn(tx);
        this.payerOnly(state, scope);
        const plan = (await this.deps.limits.plans(tx)).get(planId);
        if (!plan) throw new Error(`plan ${planId} is not in the catalogue`);
        if (state.plan.id === planId) throw new AppError('SUBSCRIPTION_SAME_PLAN', SUBSCRIPTION_MESSAGES.samePlan, 409);
        return {
          plan,
          subscription: await this.presentIn(tx, state, scope.userId),
          customerId: state.subscription.stripeCustomerId,
          email: await this.deps.users.emailIn(tx),
          held: state.subscription.stripeSubscriptionId,
          holderId: state.subscription.workspaceId,
        };
      },
    );
    if (planId === 'free') return this.cancel(scope);
    const back = `${this.deps.publicUrl}/subscription`;
    if (held) return { subscription, url: (await this.portal(scope)).url };
    // The plan's holder is Stripe's customer: the payer's personal workspace (ADR 0110).
    const customer = customerId ?? (await throughStripe(() => stripe.createCustomer(holderId, email ?? '')));
    if (!customerId) {
      await this.deps.transactions.tenant(scope, async (tx) => {
        const state = await this.deps.limits.stateIn(tx, { forUpdate: true });
        await this.setCustomerIn(tx, state, customer);
      });
    }
    const price = {
      currency,
      amount: PLAN_TABLE.find((entry) => entry.id === planId)?.prices[currency] ?? plan.price,
      priceId: this.deps.stripePrices[`${planId}:${currency}`],
    };
    // The same payer, plan, currency and day: a second click answers the same session instead of opening another.
    const day = this.deps.now().toISOString().slice(0, 10);
    const order = { workspaceId: holderId, planId, planName: plan.name, price, customerId: customer };
    const url = await throughStripe(() =>
      paymentMethod === 'promptpay'
        ? stripe.createPromptPaySubscription({ ...order, idempotencyKey: `promptpay-${holderId}-${planId}-${day}` })
        : stripe.createCheckout({
            ...order,
            successUrl: `${back}?checkout=success`,
            cancelUrl: `${back}?checkout=cancel`,
            idempotencyKey:
              currency === 'USD'
                ? `checkout-${holderId}-${planId}-${day}`
                : `checkout-${holderId}-${planId}-thb-${day}`,
          }),
    );
    return { subscription, url };
  }

  /** Up to `limit` plans as stored now, or null while the instance has no plans table (the Test page). */
  planSampleIn(tx: SystemTx, limit: number): Promise<{ id: string; name: string }[] | null> {
    return this.deps.repository.planSample(tx, limit);
  }

  /** Records the plan holder's Stripe customer, in the caller's unit of work (the plan's row held for update). */
  async setCustomerIn(tx: TenantTx, state: PlanState, customerId: string): Promise<void> {
    await this.deps.repository.withinSystem(tx, 'stripe customer', (system) =>
      this.deps.repository.update(
        system,
        state.subscription.workspaceId,
        { stripeCustomerId: customerId },
        this.deps.now(),
      ),
    );
  }

  /** The plan with its pooled use and each workspace's (ADR 0110), as `viewerId` sees it. */
  async presentIn(tx: TenantTx, state: PlanState, viewerId: string | null = null): Promise<CurrentSubscription> {
    const usage = await this.deps.repository.withinSystem(tx, 'use of the plan', (system) =>
      this.deps.limits.usageOf(system, state),
    );
    const { stripeCustomerId, stripeSubscriptionId } = state.subscription;
    // Paid, past due or cancelling through Stripe: the portal is where the card is changed and invoices are read.
    const canManageBilling = this.deps.billing() !== undefined && !!stripeCustomerId && !!stripeSubscriptionId;
    return presentSubscription(state, usage, {
      canManageBilling,
      assignedByAdmin: this.assignedByAdmin(),
      paidByYou: state.pool.payerId === null || state.pool.payerId === viewerId,
    });
  }
}
