import { PLAN_TABLE, SUBSCRIPTION_MESSAGES, UNLIMITED, type PlanId } from '@adpilot/contracts';
import type { SubscriptionPlanRow, SubscriptionRow, SystemTx, TenantTx, Transactions, TenantScope } from '@adpilot/db';
import type { PlanPool } from '../workspaces/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AiQuota } from '../ai/index.ts';
import { usagePeriodAt } from './billing-period.ts';
import type { RulePlanLimits } from '../rules/index.ts';
import type { SubscriptionLock, SubscriptionRepository } from './subscription.repository.ts';

/** A payer's plan and the workspaces it covers (the workspaces module's pool, ADR 0110). */
export type { PlanPool };

/** The plan as every limit reads it, with the usage month holding now (ADR 0061) and the pool it covers. */
export interface PlanState {
  plan: SubscriptionPlanRow;
  /** The holder's row: the payer's personal workspace's (ADR 0110). */
  subscription: SubscriptionRow;
  period: { start: Date; end: Date };
  pool: PlanPool;
}

/** One AI request counted against the plan: what `returnAiRequest` needs to give it back. */
export interface AiRequestTake {
  scope: TenantScope;
  holderId: string;
  periodStart: Date;
  /** Requests counted this month across the plan's workspaces, this one included. */
  used: number;
  /** -1: unlimited. */
  limit: number;
}

/** What the plan counts in each workspace it covers, read on the system path (each owner module's count). */
export interface PoolUsageSources {
  activeRulesIn(tx: SystemTx, workspaceIds: readonly string[]): Promise<Map<string, number>>;
  adAccountsIn(tx: SystemTx, workspaceIds: readonly string[]): Promise<Map<string, number>>;
  seatsIn(
    tx: SystemTx,
    workspaceIds: readonly string[],
    now: Date,
  ): Promise<{ used: number; byWorkspace: Map<string, number> }>;
}

/** Where a workspace's pool is found (the workspaces module). */
export interface PoolSource {
  poolIn(tx: SystemTx, workspaceId: string): Promise<PlanPool | undefined>;
  holdersIn(tx: SystemTx, workspaceIds: readonly string[]): Promise<Map<string, string>>;
}

/** The figures the plan limits, pooled or for one workspace. */
export interface PoolFigures {
  adAccounts: number;
  activeRules: number;
  aiRequests: number;
  seats: number;
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

/** The plan table as the rows every limit reads (the database's `subscription_plans` holds the same, ADR 0113). */
const CATALOGUE: Map<string, SubscriptionPlanRow> = new Map(
  PLAN_TABLE.map((entry, sortOrder) => [
    entry.id,
    {
      id: entry.id,
      name: entry.name,
      price: entry.prices.USD,
      ...entry.limits,
      features: [...entry.features],
      badge: entry.badge,
      sortOrder,
    },
  ]),
);

/** -1 (unlimited) as a number comparisons understand. */
export const asCap = (limit: number) => (limit === UNLIMITED ? Number.POSITIVE_INFINITY : limit);

const sum = (counts: Map<string, number>, except?: string) =>
  [...counts].reduce((total, [id, n]) => (id === except ? total : total + n), 0);

export interface PlanLimitsDeps {
  transactions: Transactions;
  repository: SubscriptionRepository;
  pools: PoolSource;
  usage: PoolUsageSources;
  now: () => Date;
}

/**
 * The one place plan limits are read and enforced (ADR 0040). Every feature asks it: rules (active rules, fastest
 * check), ad accounts (how many may be connected), seats and the AI studio (`takeAiRequest`, one request per call,
 * counted atomically per billing month). A plan is its payer's and covers every workspace they pay for (ADR 0110):
 * each limit counts across them, under a lock on the plan's row held until the caller's unit of work ends, so
 * parallel requests from the plan's workspaces never pass a limit. Refusals are AppErrors whose message names the
 * upgrade path and whose params name the plan's own limit.
 */
export class PlanLimits {
  constructor(private readonly deps: PlanLimitsDeps) {}

  /** The catalogue: the contracts' `PLAN_TABLE` (ADR 0113), the one table the plan cards and every check read. */
  async plans(_tx?: TenantTx | SystemTx): Promise<Map<string, SubscriptionPlanRow>> {
    return CATALOGUE;
  }

  /**
   * The plan covering `workspaceId`, on the system path (the holder's subscription row is made on the free plan if
   * missing). `forUpdate` for a plan change or a write a pooled limit counts; `forShare` to keep the plan still.
   */
  async stateOf(tx: SystemTx, workspaceId: string, options: SubscriptionLock = {}): Promise<PlanState> {
    const now = this.deps.now();
    const found = await this.deps.pools.poolIn(tx, workspaceId);
    if (!found) throw AppError.notFound('Workspace not found');
    const subscription = await this.deps.repository.getOrCreate(tx, found.holderId, now, options);
    // Locked, the pool is read again: a handover into this plan that committed while this one waited for the lock is
    // in the pool judged (read before the lock only, two parallel handovers would each miss the other).
    const pool = options.forUpdate ? ((await this.deps.pools.poolIn(tx, workspaceId)) ?? found) : found;
    const plan = (await this.plans(tx)).get(planIdAt(subscription, now));
    if (!plan) throw new Error(`plan ${subscription.planId} is not in the catalogue`);
    return { plan, subscription, period: usagePeriodAt(subscription, now), pool };
  }

  /** The plan covering the unit of work's workspace, inside it (see `stateOf`). */
  stateIn(tx: TenantTx, options: SubscriptionLock = {}): Promise<PlanState> {
    return this.deps.repository.withinSystem(tx, 'plan of the workspace', (system) =>
      this.stateOf(system, tx.workspaceId, options),
    );
  }

  state(scope: TenantScope): Promise<PlanState> {
    return this.deps.transactions.tenant(scope, (tx) => this.stateIn(tx));
  }

  /** What the plan counts in each of its workspaces and in all (seats: each person once), in the caller's unit. */
  async usageOf(tx: SystemTx, state: PlanState): Promise<{ pool: PoolFigures; byWorkspace: Map<string, PoolFigures> }> {
    const ids = state.pool.workspaces.map((w) => w.id);
    const rules = await this.deps.usage.activeRulesIn(tx, ids);
    const accounts = await this.deps.usage.adAccountsIn(tx, ids);
    const seats = await this.deps.usage.seatsIn(tx, ids, this.deps.now());
    const ai = await this.deps.repository.aiRequestsOf(tx, ids, state.period.start);
    const byWorkspace = new Map(
      ids.map((id) => [
        id,
        {
          adAccounts: accounts.get(id) ?? 0,
          activeRules: rules.get(id) ?? 0,
          aiRequests: ai.get(id) ?? 0,
          seats: seats.byWorkspace.get(id) ?? 0,
        },
      ]),
    );
    return {
      pool: {
        adAccounts: sum(accounts),
        activeRules: sum(rules),
        aiRequests: await this.deps.repository.aiRequests(tx, state.pool.holderId, state.period.start),
        seats: seats.used,
      },
      byWorkspace,
    };
  }

  /**
   * `ActiveRuleQuota`: how many rules this workspace may have switched on at once (the plan's pooled limit less
   * those on in its other workspaces; Infinity when unlimited) and the shortest "every N minutes", in the rule's
   * unit of work. The plan's row is locked for update first: activations anywhere in the pool, and a plan change,
   * queue on it, so the counts read hold until the rule is written.
   */
  async rulesIn(tx: TenantTx): Promise<RulePlanLimits> {
    return this.deps.repository.withinSystem(tx, 'active rules of the plan', async (system) => {
      const state = await this.stateOf(system, tx.workspaceId, { forUpdate: true });
      const { plan, pool } = state;
      const cap = asCap(plan.activeRules);
      const others = Number.isFinite(cap)
        ? sum(
            await this.deps.usage.activeRulesIn(
              system,
              pool.workspaces.map((w) => w.id),
            ),
            tx.workspaceId,
          )
        : 0;
      return {
        plan: plan.id as PlanId,
        activeRules: Math.max(0, cap - others),
        limit: plan.activeRules,
        fastestCheckMinutes: plan.fastestCheckMinutes,
      };
    });
  }

  /**
   * `ActiveRuleQuota` for the scheduler: the shortest "every N minutes" the plan covering each workspace allows at
   * `now`, across tenants (a plan without a subscription row is the free plan; a lapsed past-due one too).
   */
  async fastestCheckMinutesOf(
    tx: SystemTx,
    workspaceIds: readonly string[],
    now: Date,
  ): Promise<ReadonlyMap<string, number>> {
    const plans = await this.plans(tx);
    const holders = await this.deps.pools.holdersIn(tx, workspaceIds);
    const held = new Map(
      (await this.deps.repository.plansOf(tx, [...new Set(holders.values())])).map((row) => [row.workspaceId, row]),
    );
    const minutes = new Map<string, number>();
    for (const workspaceId of workspaceIds) {
      const row = held.get(holders.get(workspaceId) ?? workspaceId);
      const plan = plans.get(row ? planIdAt(row, now) : 'free');
      if (!plan) throw new Error(`plan ${row?.planId ?? 'free'} is not in the catalogue`);
      minutes.set(workspaceId, plan.fastestCheckMinutes);
    }
    return minutes;
  }

  /** The plan covering each of these workspaces (the administrator's list); the free plan where none is held. */
  async planIdsOf(tx: SystemTx, workspaceIds: readonly string[]): Promise<Map<string, PlanId>> {
    const holders = await this.deps.pools.holdersIn(tx, workspaceIds);
    const rows = new Map(
      (await this.deps.repository.plansOf(tx, [...new Set(holders.values())])).map((row) => [row.workspaceId, row]),
    );
    return new Map(
      workspaceIds.map((id) => {
        const row = rows.get(holders.get(id) ?? id);
        return [id, (row?.planId ?? 'free') as PlanId];
      }),
    );
  }

  /**
   * The plan covering a workspace, its seats (-1 unlimited) and the workspaces it covers, read in the workspaces
   * module's unit of work on the system path, with the plan's row locked for update until it ends: every seat
   * taken anywhere in the pool queues on it (ADR 0110, 0111).
   */
  async seatsOf(tx: SystemTx, workspaceId: string): Promise<{ plan: PlanId; seats: number; workspaceIds: string[] }> {
    const { plan, pool } = await this.stateOf(tx, workspaceId, { forUpdate: true });
    return { plan: plan.id as PlanId, seats: plan.seats, workspaceIds: pool.workspaces.map((w) => w.id) };
  }

  /** The furthest back a rule backtest may look on the plan covering the unit of work's workspace (ADR 0113). */
  async backtestDaysIn(tx: TenantTx): Promise<{ plan: PlanId; days: number }> {
    const { plan } = await this.stateIn(tx);
    return { plan: plan.id as PlanId, days: plan.backtestDays };
  }

  /**
   * How many ad accounts the plan allows (Infinity when unlimited), how many of them this workspace may hold (the
   * limit less those connected in the plan's other workspaces), and the plan, in the connection's unit of work,
   * the plan's row locked for update until it ends.
   */
  async adAccountLimitIn(tx: TenantTx): Promise<{ plan: PlanId; limit: number; room: number }> {
    return this.deps.repository.withinSystem(tx, 'ad accounts of the plan', async (system) => {
      const { plan, pool } = await this.stateOf(system, tx.workspaceId, { forUpdate: true });
      const cap = asCap(plan.adAccounts);
      const others = Number.isFinite(cap)
        ? sum(
            await this.deps.usage.adAccountsIn(
              system,
              pool.workspaces.map((w) => w.id),
            ),
            tx.workspaceId,
          )
        : 0;
      return { plan: plan.id as PlanId, limit: cap, room: Math.max(0, cap - others) };
    });
  }

  /**
   * Counts one AI request against the plan for this billing month, or refuses it: 429 `AI_REQUEST_LIMIT_REACHED`
   * with the upgrade path in the message and `Retry-After` until the month resets. One conditional upsert of the
   * pooled count decides, so parallel requests from any of the plan's workspaces never count past the limit, and a
   * refused request is not counted. Call it before asking the model; `returnAiRequest(take)` gives the request back
   * if the model failed to answer. The plan's row is share-locked, so a plan change (which carries the month's
   * count over, `carryAiRequestsIn`) waits for takes in flight.
   */
  async takeAiRequest(scope: TenantScope): Promise<AiRequestTake> {
    return this.deps.transactions.tenant(scope, (tx) =>
      this.deps.repository.withinSystem(tx, 'AI request of the plan', async (system) => {
        const { plan, period, pool } = await this.stateOf(system, scope.workspaceId, { forShare: true });
        const used = await this.deps.repository.takeAiRequest(
          system,
          pool.holderId,
          scope.workspaceId,
          period.start,
          plan.aiRequests,
        );
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
        return { scope, holderId: pool.holderId, periodStart: period.start, used, limit: plan.aiRequests };
      }),
    );
  }

  /**
   * The AI studio's `AiQuota`: the same atomic take (a refusal is the 429 above, uncounted), the give-back when the
   * model failed, and the month's pooled usage for its card.
   */
  readonly aiQuota: AiQuota<AiRequestTake> = {
    take: (scope) => this.takeAiRequest(scope),
    giveBack: (take) => this.returnAiRequest(take),
    usage: (scope) =>
      this.deps.transactions.tenant(scope, (tx) =>
        this.deps.repository.withinSystem(tx, 'AI requests of the plan', async (system) => {
          const { plan, period, pool } = await this.stateOf(system, scope.workspaceId);
          return {
            plan: plan.id as PlanId,
            used: await this.deps.repository.aiRequests(system, pool.holderId, period.start),
            limit: plan.aiRequests,
          };
        }),
      ),
  };

  /**
   * After a plan change in the caller's unit of work (the plan's row held for update): when the change moved the
   * usage month (Checkout starts Stripe's billing period, an ended Stripe subscription returns to calendar months),
   * the new month starts with the pooled count of the one left, so a plan change never empties the counter.
   */
  async carryAiRequestsIn(
    tx: SystemTx,
    holderId: string,
    from: PlanState['period'],
    to: PlanState['period'],
  ): Promise<void> {
    if (from.start.getTime() === to.start.getTime()) return;
    const used = await this.deps.repository.aiRequests(tx, holderId, from.start);
    if (used > 0) await this.deps.repository.carryAiRequests(tx, holderId, to.start, used);
  }

  /**
   * Whether `workspaceId` fits under the plan held by `holderId` (a handover to its payer, issue 31), in the caller's
   * unit of work with that plan's row locked for update until it ends, so two handovers into one plan at once are
   * judged one after the other. Null when it fits; else the first pooled limit it would pass, with the plan's figure.
   * Seats count each person once across the plan's workspaces and the moving one.
   */
  async handoverRefusalIn(
    tx: SystemTx,
    workspaceId: string,
    holderId: string,
  ): Promise<{ limit: 'adAccounts' | 'activeRules' | 'seats'; plan: PlanId; figure: number } | null> {
    const state = await this.stateOf(tx, holderId, { forUpdate: true });
    const ids = state.pool.workspaces.map((w) => w.id);
    if (ids.includes(workspaceId)) return null;
    const { pool } = await this.usageOf(tx, state);
    const moving = [workspaceId];
    const extra = {
      adAccounts: sum(await this.deps.usage.adAccountsIn(tx, moving)),
      activeRules: sum(await this.deps.usage.activeRulesIn(tx, moving)),
    };
    const seats = (await this.deps.usage.seatsIn(tx, [...ids, workspaceId], this.deps.now())).used;
    const plan = state.plan.id as PlanId;
    for (const limit of ['adAccounts', 'activeRules'] as const) {
      if (pool[limit] + extra[limit] > asCap(state.plan[limit])) return { limit, plan, figure: state.plan[limit] };
    }
    if (seats > asCap(state.plan.seats)) return { limit: 'seats', plan, figure: state.plan.seats };
    return null;
  }

  /** Gives back a request `takeAiRequest` counted, when the model failed and the user got no answer. */
  async returnAiRequest(take: AiRequestTake): Promise<void> {
    await this.deps.transactions.tenant(take.scope, (tx) =>
      this.deps.repository.withinSystem(tx, 'AI request given back', (system) =>
        this.deps.repository.returnAiRequest(system, take.holderId, take.scope.workspaceId, take.periodStart),
      ),
    );
  }
}
