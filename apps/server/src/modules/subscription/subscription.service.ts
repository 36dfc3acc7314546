import {
  SUBSCRIPTION_MESSAGES,
  type CurrentSubscription,
  type Plan,
  type PlanId,
  type UpgradeResponse,
} from '@adpilot/contracts';
import type { TenantTx, Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { ActivityRepository } from '../activity/activity.repository.ts';
import type { RulesService } from '../rules/rules.service.ts';
import { asCap, type PlanLimits, type PlanState } from './plan-limits.ts';
import { presentPlan, presentSubscription } from './subscription.presenter.ts';
import type { SubscriptionPatch, SubscriptionRepository } from './subscription.repository.ts';

export interface SubscriptionServiceDeps {
  db: Transactions;
  repository: SubscriptionRepository;
  limits: PlanLimits;
  rules: Pick<RulesService, 'deactivateBeyondLimit'>;
  activity: ActivityRepository;
  now: () => Date;
}

/** Spec §7 Subscription: the current plan with its usage, the catalogue, upgrade and cancel (local provider). */
export class SubscriptionService {
  constructor(private readonly deps: SubscriptionServiceDeps) {}

  async plans(userId: string): Promise<Plan[]> {
    return this.deps.db.tenant(userId, async (tx) => [...(await this.deps.limits.plans(tx)).values()].map(presentPlan));
  }

  async current(userId: string): Promise<CurrentSubscription> {
    return this.deps.db.tenant(userId, async (tx) => this.presentIn(tx, await this.deps.limits.stateIn(tx)));
  }

  /** Local billing: the chosen plan applies at once and a new month of it begins (spec FAQ). */
  async upgrade(userId: string, planId: PlanId): Promise<UpgradeResponse> {
    return this.deps.db.tenant(userId, async (tx) => {
      const state = await this.deps.limits.stateIn(tx, { forUpdate: true });
      if (state.plan.id === planId) throw new AppError('SUBSCRIPTION_SAME_PLAN', SUBSCRIPTION_MESSAGES.samePlan, 409);
      const next = await this.changePlanIn(tx, state, planId, {
        currentPeriodStart: this.deps.now(),
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        status: 'active',
      });
      return { subscription: await this.presentIn(tx, next) };
    });
  }

  /** Local billing: back to the free plan at once. */
  async cancel(userId: string): Promise<{ subscription: CurrentSubscription }> {
    return this.deps.db.tenant(userId, async (tx) => {
      const state = await this.deps.limits.stateIn(tx, { forUpdate: true });
      if (state.plan.id === 'free')
        throw new AppError('SUBSCRIPTION_NOT_CANCELABLE', SUBSCRIPTION_MESSAGES.alreadyFree, 409);
      const next = await this.changePlanIn(tx, state, 'free', {
        currentPeriodStart: this.deps.now(),
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        status: 'active',
      });
      return { subscription: await this.presentIn(tx, next) };
    });
  }

  /**
   * Moves the subscription to `planId` in the caller's unit of work, logs the change, and on a downgrade switches
   * off the newest active rules beyond the new limit with an entry saying which (data is kept). Used by every
   * provider: local at once, Stripe from its webhooks.
   */
  async changePlanIn(tx: TenantTx, state: PlanState, planId: string, patch: SubscriptionPatch): Promise<PlanState> {
    const now = this.deps.now();
    const plan = (await this.deps.limits.plans(tx)).get(planId);
    if (!plan) throw new Error(`plan ${planId} is not in the catalogue`);
    await this.deps.repository.update(tx, { ...patch, planId }, now);
    const next = await this.deps.limits.stateIn(tx);
    if (state.plan.id !== planId) {
      await this.deps.activity.insert(tx, {
        level: 'info',
        category: 'billing',
        description: `Plan changed from ${state.plan.name} to ${plan.name}`,
        metadata: { code: 'plan_changed', params: { from: state.plan.id, to: plan.id } },
      });
    }
    const switchedOff = await this.deps.rules.deactivateBeyondLimit(tx, asCap(plan.activeRules));
    if (switchedOff.length > 0) {
      const names = switchedOff.map((rule) => rule.name);
      await this.deps.activity.insert(tx, {
        level: 'warning',
        category: 'billing',
        description: `The ${plan.name} plan allows ${plan.activeRules} active rules: switched off ${names.join(', ')}`,
        metadata: {
          code: 'plan_rules_deactivated',
          params: { plan: plan.id, limit: plan.activeRules, count: names.length, rules: names },
          ruleIds: switchedOff.map((rule) => rule.id),
        },
      });
    }
    return next;
  }

  private async presentIn(tx: TenantTx, state: PlanState): Promise<CurrentSubscription> {
    const [aiRequests, activeRules, adAccounts] = [
      await this.deps.repository.aiRequests(tx, state.period.start),
      await this.deps.repository.activeRules(tx),
      await this.deps.repository.adAccounts(tx),
    ];
    return presentSubscription(state, { aiRequests, activeRules, adAccounts });
  }
}
