import { SUBSCRIPTION_MESSAGES, UNLIMITED, type PlanId } from '@adpilot/contracts';
import type { SubscriptionPlanRow, SubscriptionRow, SystemTx, TenantTx, Transactions, TenantScope } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { AiQuota } from '../ai/ai-quota.ts';
import { usagePeriodAt } from './billing-period.ts';
import type { RulePlanLimits } from '../rules/definitions/rules.service.ts';
import type { SubscriptionLock, SubscriptionRepository } from './subscription.repository.ts';

/** The user's plan as every limit reads it, with the usage month holding now (ADR 0061). */
export interface PlanState {
  plan: SubscriptionPlanRow;
  subscription: SubscriptionRow;
  period: { start: Date; end: Date };
}

/** One AI request counted against the plan: what `returnAiRequest` needs to give it back. */
export interface AiRequestTake {
  scope: TenantScope;
  periodStart: Date;
  /** Requests counted this month, this one included. */
  used: number;
  /** -1: unlimited. */
  limit: number;
}

/** A failed payment keeps the plan until the period paid for ends; after that the free plan's limits apply. */
export function planIdAt(
  subscription: Pick<SubscriptionRow, 'planId' | 'status' | 'currentPeriodEnd'>,
  now: Date,
): string {
  const lapsed =
    subscription.status === 'past_due' &&
    subscription.currentPeriodEnd !== null &&
    subscription.currentPeriodEnd.getTime() <= now.getTime();
  return lapsed ? 'free' : subscription.planId;
}

/** -1 (unlimited) as a number comparisons understand. */
export const asCap = (limit: number) => (limit === UNLIMITED ? Number.POSITIVE_INFINITY : limit);

export interface PlanLimitsDeps {
  transactions: Transactions;
  repository: SubscriptionRepository;
  now: () => Date;
}

/**
 * The one place plan limits are read and enforced (ADR 0040). Every feature asks it: rules (active rules, fastest
 * check), ad accounts (how many may be connected) and the AI studio (`takeAiRequest`, one request per call,
 * counted atomically per billing month). Refusals are AppErrors whose message names the upgrade path.
 */
export class PlanLimits {
  private catalogue?: Promise<Map<string, SubscriptionPlanRow>>;

  constructor(private readonly deps: PlanLimitsDeps) {}

  /** The catalogue changes only with a migration: read once per process. */
  async plans(tx: TenantTx | SystemTx): Promise<Map<string, SubscriptionPlanRow>> {
    this.catalogue ??= this.deps.repository.plans(tx).then((rows) => new Map(rows.map((row) => [row.id, row])));
    const plans = await this.catalogue.catch((error: unknown) => {
      this.catalogue = undefined;
      throw error;
    });
    return plans;
  }

  /**
   * The user's plan inside the caller's unit of work (the subscription row is made on the free plan if missing).
   * `forUpdate` for a plan change; `forShare` to keep the plan still while a write that depends on it is made.
   */
  async stateIn(tx: TenantTx, options: SubscriptionLock = {}): Promise<PlanState> {
    const now = this.deps.now();
    const subscription = await this.deps.repository.getOrCreate(tx, now, options);
    const plan = (await this.plans(tx)).get(planIdAt(subscription, now));
    if (!plan) throw new Error(`plan ${subscription.planId} is not in the catalogue`);
    return { plan, subscription, period: usagePeriodAt(subscription, now) };
  }

  state(scope: TenantScope): Promise<PlanState> {
    return this.deps.transactions.tenant(scope, (tx) => this.stateIn(tx));
  }

  /**
   * `ActiveRuleQuota`: how many rules may be switched on at once (Infinity when unlimited) and the shortest "every N
   * minutes", in the rule's unit of work. The subscription row is share-locked first: a plan change (which locks it
   * for update) waits until the rule is written, or the rule waits and reads the new plan.
   */
  async rulesIn(tx: TenantTx): Promise<RulePlanLimits> {
    const { plan } = await this.stateIn(tx, { forShare: true });
    return {
      plan: plan.id as PlanId,
      activeRules: asCap(plan.activeRules),
      fastestCheckMinutes: plan.fastestCheckMinutes,
    };
  }

  /**
   * `ActiveRuleQuota` for the scheduler: the shortest "every N minutes" each user's plan allows at `now`, across tenants
   * (a user without a subscription row is on the free plan; a lapsed past-due one too).
   */
  async fastestCheckMinutesOf(
    tx: SystemTx,
    workspaceIds: readonly string[],
    now: Date,
  ): Promise<ReadonlyMap<string, number>> {
    const plans = await this.plans(tx);
    const held = new Map((await this.deps.repository.plansOf(tx, workspaceIds)).map((row) => [row.workspaceId, row]));
    const minutes = new Map<string, number>();
    for (const workspaceId of workspaceIds) {
      const row = held.get(workspaceId);
      const plan = plans.get(row ? planIdAt(row, now) : 'free');
      if (!plan) throw new Error(`plan ${row?.planId ?? 'free'} is not in the catalogue`);
      minutes.set(workspaceId, plan.fastestCheckMinutes);
    }
    return minutes;
  }

  /**
   * A workspace's plan and its seats (members plus pending invitations; -1 unlimited), read in the workspaces
   * module's unit of work on the system path, under its lock on the workspace row (ADR 0071). A workspace without a
   * subscription row is on the free plan.
   */
  async seatsOf(tx: SystemTx, workspaceId: string): Promise<{ plan: PlanId; seats: number }> {
    const row = await this.deps.repository.planOfWorkspace(tx, workspaceId);
    const planId = row ? planIdAt(row, this.deps.now()) : 'free';
    const plan = (await this.plans(tx)).get(planId);
    if (!plan) throw new Error(`plan ${planId} is not in the catalogue`);
    return { plan: plan.id as PlanId, seats: plan.seats };
  }

  /** How many ad accounts the user's plan allows (Infinity when unlimited), and the plan, in the caller's unit of work. */
  async adAccountLimitIn(tx: TenantTx): Promise<{ plan: PlanId; limit: number }> {
    const { plan } = await this.stateIn(tx);
    return { plan: plan.id as PlanId, limit: asCap(plan.adAccounts) };
  }

  /**
   * Counts one AI request against the user's plan for this billing month, or refuses it: 429
   * `AI_REQUEST_LIMIT_REACHED` with the upgrade path in the message and `Retry-After` until the month resets.
   * One conditional upsert decides, so parallel requests never count past the limit, and a refused request is
   * not counted. Call it before asking the model; `returnAiRequest(take)` gives the request back if the model
   * failed to answer. The subscription row is share-locked, so a plan change (which carries the month's count
   * over, `carryAiRequestsIn`) waits for takes in flight and takes after it count in the month it leaves.
   */
  async takeAiRequest(scope: TenantScope): Promise<AiRequestTake> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      const { plan, period } = await this.stateIn(tx, { forShare: true });
      const used = await this.deps.repository.takeAiRequest(tx, period.start, plan.aiRequests);
      if (used === null) {
        const seconds = (period.end.getTime() - this.deps.now().getTime()) / 1000;
        throw new AppError(
          'AI_REQUEST_LIMIT_REACHED',
          SUBSCRIPTION_MESSAGES.aiRequestLimit,
          429,
          undefined,
          { 'retry-after': String(Math.max(1, Math.ceil(seconds))) },
          { plan: plan.id, limit: plan.aiRequests },
        );
      }
      return { scope, periodStart: period.start, used, limit: plan.aiRequests };
    });
  }

  /**
   * The AI studio's `AiQuota`: the same atomic take (a refusal is the 429 above, uncounted), the give-back when the
   * model failed, and the month's usage for its card.
   */
  readonly aiQuota: AiQuota<AiRequestTake> = {
    take: (scope) => this.takeAiRequest(scope),
    giveBack: (take) => this.returnAiRequest(take),
    usage: (scope) =>
      this.deps.transactions.tenant(scope, async (tx) => {
        const { plan, period } = await this.stateIn(tx);
        return {
          plan: plan.id as PlanId,
          used: await this.deps.repository.aiRequests(tx, period.start),
          limit: plan.aiRequests,
        };
      }),
  };

  /**
   * After a plan change in the caller's unit of work (the subscription row held for update): when the change moved
   * the usage month (Checkout starts Stripe's billing period, an ended Stripe subscription returns to calendar
   * months), the new month starts with the count of the one left, so a plan change never empties the counter.
   */
  async carryAiRequestsIn(tx: TenantTx, from: PlanState['period'], to: PlanState['period']): Promise<void> {
    if (from.start.getTime() === to.start.getTime()) return;
    const used = await this.deps.repository.aiRequests(tx, from.start);
    if (used > 0) await this.deps.repository.carryAiRequests(tx, to.start, used);
  }

  /** Gives back a request `takeAiRequest` counted, when the model failed and the user got no answer. */
  async returnAiRequest(take: AiRequestTake): Promise<void> {
    await this.deps.transactions.tenant(take.scope, (tx) => this.deps.repository.returnAiRequest(tx, take.periodStart));
  }
}
