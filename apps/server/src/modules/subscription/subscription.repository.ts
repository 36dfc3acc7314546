import {
  asTenantTx,
  systemWithin,
  billingEvents,
  selectRows,
  subscriptionPlans,
  subscriptions,
  usageCounters,
  type SubscriptionPlanRow,
  type SubscriptionRow,
  type SystemTx,
  type TenantTx,
} from '@adpilot/db';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';

export type SubscriptionPatch = Partial<
  Pick<
    SubscriptionRow,
    | 'planId'
    | 'status'
    | 'currentPeriodStart'
    | 'currentPeriodEnd'
    | 'cancelAtPeriodEnd'
    | 'provider'
    | 'stripeCustomerId'
    | 'stripeSubscriptionId'
    | 'providerUpdatedAt'
  >
>;

/** How a read of the subscription row locks it: for a plan change (update), or to keep the plan still (share). */
export interface SubscriptionLock {
  forUpdate?: boolean;
  forShare?: boolean;
}

/** Plans, the user's subscription and metered usage. Tenant methods filter by `tx.workspaceId` as well as RLS. */
export class SubscriptionRepository {
  /**
   * The system path inside a workspace's unit of work, back to the application role after (ADR 0110): a plan's
   * pooled reads and locks across the workspaces it covers, in the transaction whose write they guard.
   */
  withinSystem<T>(tx: TenantTx, reason: string, work: (system: SystemTx) => Promise<T>): Promise<T> {
    return systemWithin(tx, reason, work);
  }

  /** One of a plan's workspaces as its own job, on the system path (a plan change fitting each workspace to it). */
  asWorkspace(system: SystemTx, workspaceId: string): TenantTx {
    return asTenantTx(system.db, { workspaceId, userId: null });
  }

  plans(tx: TenantTx | SystemTx): Promise<SubscriptionPlanRow[]> {
    return tx.db.select().from(subscriptionPlans).orderBy(asc(subscriptionPlans.sortOrder));
  }

  /**
   * Up to `limit` plans as the database holds them now, or null while the instance has no plans table (billing adds
   * `subscription_plans`): the Test page's read.
   */
  async planSample(tx: SystemTx, limit: number): Promise<{ id: string; name: string }[] | null> {
    const [exists] = await selectRows<{ present: boolean }>(
      tx.db,
      sql`select to_regclass('public.subscription_plans') is not null as present`,
    );
    if (!exists?.present) return null;
    return selectRows<{ id: string; name: string }>(
      tx.db,
      sql`select id::text as id, name::text as name from subscription_plans order by id limit ${limit}`,
    );
  }

  /**
   * The subscription row of `workspaceId` (a plan's holder, ADR 0110), made on the free plan the first time it is
   * asked for, on the system path inside the caller's unit of work.
   */
  async getOrCreate(
    tx: SystemTx,
    workspaceId: string,
    now: Date,
    options: SubscriptionLock = {},
  ): Promise<SubscriptionRow> {
    const existing = await this.find(tx, workspaceId, options);
    if (existing) return existing;
    await tx.db
      .insert(subscriptions)
      .values({ workspaceId, planId: 'free', currentPeriodStart: now })
      .onConflictDoNothing();
    const created = await this.find(tx, workspaceId, options);
    if (!created) throw new Error('subscription row missing after insert');
    return created;
  }

  private async find(
    tx: SystemTx,
    workspaceId: string,
    options: SubscriptionLock,
  ): Promise<SubscriptionRow | undefined> {
    const query = tx.db.select().from(subscriptions).where(eq(subscriptions.workspaceId, workspaceId));
    const [row] = options.forUpdate
      ? await query.for('update')
      : options.forShare
        ? await query.for('share')
        : await query;
    return row;
  }

  /** The plan each of these users holds (the scheduler's read across tenants); a user without a row has none yet. */
  /** A workspace's subscription as the plan's limits read it, or undefined when it has none yet (the free plan). */
  async planOfWorkspace(
    tx: SystemTx,
    workspaceId: string,
  ): Promise<Pick<SubscriptionRow, 'planId' | 'status' | 'currentPeriodEnd'> | undefined> {
    const [row] = await tx.db
      .select({
        planId: subscriptions.planId,
        status: subscriptions.status,
        currentPeriodEnd: subscriptions.currentPeriodEnd,
      })
      .from(subscriptions)
      .where(eq(subscriptions.workspaceId, workspaceId));
    return row;
  }

  plansOf(
    tx: SystemTx,
    workspaceIds: readonly string[],
  ): Promise<Pick<SubscriptionRow, 'workspaceId' | 'planId' | 'status' | 'currentPeriodEnd'>[]> {
    if (workspaceIds.length === 0) return Promise.resolve([]);
    return tx.db
      .select({
        workspaceId: subscriptions.workspaceId,
        planId: subscriptions.planId,
        status: subscriptions.status,
        currentPeriodEnd: subscriptions.currentPeriodEnd,
      })
      .from(subscriptions)
      .where(inArray(subscriptions.workspaceId, [...workspaceIds]));
  }

  /** Changes the subscription row of a plan's holder. */
  async update(tx: SystemTx, workspaceId: string, patch: SubscriptionPatch, at: Date): Promise<SubscriptionRow> {
    const [row] = await tx.db
      .update(subscriptions)
      .set({ ...patch, updatedAt: at })
      .where(eq(subscriptions.workspaceId, workspaceId))
      .returning();
    if (!row) throw new Error('subscription row missing');
    return row;
  }

  /**
   * Records a webhook event as applied in the caller's unit of work; false when it already was (a redelivery). A
   * parallel delivery of the same id waits on the key and then finds it taken.
   */
  async claimEvent(tx: TenantTx | SystemTx, id: string, type: string, workspaceId: string | null): Promise<boolean> {
    const rows = await tx.db
      .insert(billingEvents)
      .values({ id, type, workspaceId })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    return rows.length === 1;
  }

  /** Who holds the subscription or customer a Stripe event names, if anyone. */
  async findStripeHolder(
    tx: SystemTx,
    refs: { customerId?: string; subscriptionId?: string },
  ): Promise<string | undefined> {
    const matches = [
      refs.subscriptionId ? eq(subscriptions.stripeSubscriptionId, refs.subscriptionId) : undefined,
      refs.customerId ? eq(subscriptions.stripeCustomerId, refs.customerId) : undefined,
    ].filter((match) => match !== undefined);
    if (matches.length === 0) return undefined;
    const [row] = await tx.db
      .select({ workspaceId: subscriptions.workspaceId })
      .from(subscriptions)
      .where(or(...matches));
    return row?.workspaceId;
  }

  /** The requests counted against the plan in the period: the pooled count on its holder's row (ADR 0110). */
  async aiRequests(tx: SystemTx, holderId: string, periodStart: Date): Promise<number> {
    const [row] = await tx.db
      .select({ value: usageCounters.pooledAiRequests })
      .from(usageCounters)
      .where(and(eq(usageCounters.workspaceId, holderId), eq(usageCounters.periodStart, periodStart)));
    return row?.value ?? 0;
  }

  /** Each workspace's own requests in the period (the Subscription page's per-workspace use). */
  async aiRequestsOf(tx: SystemTx, workspaceIds: readonly string[], periodStart: Date): Promise<Map<string, number>> {
    if (workspaceIds.length === 0) return new Map();
    const rows = await tx.db
      .select({ workspaceId: usageCounters.workspaceId, value: usageCounters.aiRequests })
      .from(usageCounters)
      .where(and(inArray(usageCounters.workspaceId, [...workspaceIds]), eq(usageCounters.periodStart, periodStart)));
    return new Map(rows.map((row) => [row.workspaceId, row.value]));
  }

  /**
   * Counts one AI request in the period if the plan's limit allows it: one conditional upsert of the pooled count
   * on the holder's row, which locks it, so parallel takes from any of the plan's workspaces queue on it and each
   * sees the count the previous one left. Then the workspace's own count. Answers the new pooled count, or null when
   * the limit is reached (nothing is counted). A limit of -1 never refuses.
   */
  async takeAiRequest(
    tx: SystemTx,
    holderId: string,
    workspaceId: string,
    periodStart: Date,
    limit: number,
  ): Promise<number | null> {
    if (limit === 0) return null;
    const rows = await selectRows<{ pooled_ai_requests: number }>(
      tx.db,
      sql`insert into ${usageCounters} (workspace_id, period_start, ai_requests, pooled_ai_requests)
          values (${holderId}, ${periodStart.toISOString()}, 0, 1)
          on conflict (workspace_id, period_start) do update
            set pooled_ai_requests = ${usageCounters}.pooled_ai_requests + 1
          where ${limit} = -1 or ${usageCounters}.pooled_ai_requests < ${limit}
          returning pooled_ai_requests`,
    );
    const used = rows[0]?.pooled_ai_requests ?? null;
    if (used === null) return null;
    await tx.db
      .insert(usageCounters)
      .values({ workspaceId, periodStart, aiRequests: 1 })
      .onConflictDoUpdate({
        target: [usageCounters.workspaceId, usageCounters.periodStart],
        set: { aiRequests: sql`${usageCounters.aiRequests} + 1` },
      });
    return used;
  }

  /** Starts a period of the plan at no less than `used` pooled requests (a plan change carrying the count over). */
  async carryAiRequests(tx: SystemTx, holderId: string, periodStart: Date, used: number): Promise<void> {
    await tx.db
      .insert(usageCounters)
      .values({ workspaceId: holderId, periodStart, aiRequests: 0, pooledAiRequests: used })
      .onConflictDoUpdate({
        target: [usageCounters.workspaceId, usageCounters.periodStart],
        set: { pooledAiRequests: sql`greatest(${usageCounters.pooledAiRequests}, excluded.pooled_ai_requests)` },
      });
  }

  /** Gives back one request taken in the period (the provider failed before answering); never below zero. */
  async returnAiRequest(tx: SystemTx, holderId: string, workspaceId: string, periodStart: Date): Promise<void> {
    await tx.db
      .update(usageCounters)
      .set({ pooledAiRequests: sql`greatest(${usageCounters.pooledAiRequests} - 1, 0)` })
      .where(and(eq(usageCounters.workspaceId, holderId), eq(usageCounters.periodStart, periodStart)));
    await tx.db
      .update(usageCounters)
      .set({ aiRequests: sql`greatest(${usageCounters.aiRequests} - 1, 0)` })
      .where(and(eq(usageCounters.workspaceId, workspaceId), eq(usageCounters.periodStart, periodStart)));
  }
}
