import { personOf } from '../../lib/scope.ts';
import type { DailyTotals, EntityLevel } from '@adpilot/contracts';
import {
  adAccounts,
  adEntities,
  insightsDaily,
  oauthStates,
  preparedStatement,
  takeExcluded,
  type AdAccountRow,
  type SystemTx,
  type TenantTx,
} from '@adpilot/db';
import { and, asc, count, eq, gt, gte, inArray, isNotNull, isNull, lte, lt, ne, or, sql } from 'drizzle-orm';

export type NewAdAccount = Pick<
  AdAccountRow,
  | 'facebookAccountId'
  | 'facebookAccountName'
  | 'metaAccountStatus'
  | 'disableReason'
  | 'currency'
  | 'timezone'
  | 'minDailyBudget'
  | 'accessTokenEnc'
  | 'tokenExpiresAt'
  | 'tokenKind'
  | 'isSandbox'
  | 'missingScopes'
>;

export interface EntityInput {
  level: EntityLevel;
  externalId: string;
  name: string;
  status: string;
  effectiveStatus: string;
  campaignExternalId: string | null;
  adsetExternalId: string | null;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  createdTime: Date | null;
  updatedTime: Date | null;
  /** An ad set's learning phase as Meta reports it; absent or null elsewhere. */
  learningStatus?: string | null;
}

export type { DailyTotals, EntityLevel };

export interface InsightInput extends DailyTotals {
  entityExternalId: string;
}

function toInsightRecord(row: InsightInput) {
  return {
    id: row.entityExternalId,
    date: row.date,
    spend: row.spend,
    impressions: Math.round(row.impressions),
    reach: Math.round(row.reach),
    clicks: Math.round(row.clicks),
    link_clicks: Math.round(row.linkClicks),
    conversions: row.conversions,
    conversion_value: row.conversionValue,
  };
}

/** Rows per INSERT: keeps every statement well under Postgres' 65,535 bind parameters. */
const CHUNK = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * Every method runs in the caller's unit of work and filters by its user as well: row-level security plus an
 * explicit filter on the same id.
 */
/** The list every page of the app asks for: built once per connection (see `preparedStatement`). */
const listStatement = preparedStatement((db) =>
  db
    .select()
    .from(adAccounts)
    .where(eq(adAccounts.workspaceId, sql.placeholder('workspaceId')))
    .orderBy(asc(adAccounts.createdAt), asc(adAccounts.facebookAccountName))
    .prepare('ad_accounts_list'),
);

export class AdAccountsRepository {
  /** Serialises the user's connections until the transaction ends, so the plan's limit holds against parallel ones. */
  async lockConnections(tx: TenantTx): Promise<void> {
    await tx.db.execute(
      sql`select pg_advisory_xact_lock(hashtext('ad_accounts:connect'), hashtext(${tx.workspaceId}))`,
    );
  }

  list(tx: TenantTx): Promise<AdAccountRow[]> {
    return listStatement(tx.db).execute({ workspaceId: tx.workspaceId });
  }

  async find(tx: TenantTx, id: string): Promise<AdAccountRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(adAccounts)
      .where(and(eq(adAccounts.workspaceId, tx.workspaceId), eq(adAccounts.id, id)));
    return row;
  }

  /** Connects (or reconnects) accounts: a reconnect refreshes the token and clears the re-authorisation flag. */
  async upsertConnected(tx: TenantTx, accounts: NewAdAccount[]): Promise<AdAccountRow[]> {
    if (accounts.length === 0) return [];
    return tx.db
      .insert(adAccounts)
      .values(accounts.map((account) => ({ ...account, workspaceId: tx.workspaceId })))
      .onConflictDoUpdate({
        target: [adAccounts.workspaceId, adAccounts.facebookAccountId],
        set: {
          ...takeExcluded(adAccounts, [
            'facebookAccountName',
            'metaAccountStatus',
            'disableReason',
            'currency',
            'timezone',
            'accessTokenEnc',
            'tokenExpiresAt',
            'tokenKind',
            'isSandbox',
            'missingScopes',
          ]),
          // A reconnect whose answer leaves the minimum out keeps the one we knew.
          minDailyBudget: sql`coalesce(excluded."min_daily_budget", "ad_accounts"."min_daily_budget")`,
          needsReauth: false,
          updatedAt: sql`now()`,
        },
      })
      .returning();
  }

  async update(tx: TenantTx, id: string, patch: Partial<AdAccountRow>): Promise<AdAccountRow | undefined> {
    const [row] = await tx.db
      .update(adAccounts)
      .set({ ...patch, updatedAt: new Date() })
      .where(and(eq(adAccounts.workspaceId, tx.workspaceId), eq(adAccounts.id, id)))
      .returning();
    return row;
  }

  /**
   * Moves the account's history back to `from` if it still starts at `expected` (the backfill's step, ADR 0103): a
   * step read twice moves it once, and it never moves forward. `updated_at` is left alone: it dates the sync state.
   */
  async moveHistoryFrom(tx: TenantTx, id: string, expected: string, from: string): Promise<boolean> {
    const rows = await tx.db
      .update(adAccounts)
      .set({ historyFrom: from })
      .where(
        and(eq(adAccounts.workspaceId, tx.workspaceId), eq(adAccounts.id, id), eq(adAccounts.historyFrom, expected)),
      )
      .returning({ id: adAccounts.id });
    return rows.length === 1;
  }

  /** How many accounts the user has connected (what a plan limits). */
  async countAcross(tx: SystemTx, workspaceIds: readonly string[]): Promise<Map<string, number>> {
    if (workspaceIds.length === 0) return new Map();
    const rows = await tx.db
      .select({ workspaceId: adAccounts.workspaceId, value: count() })
      .from(adAccounts)
      .where(inArray(adAccounts.workspaceId, [...workspaceIds]))
      .groupBy(adAccounts.workspaceId);
    return new Map(rows.map((row) => [row.workspaceId, row.value]));
  }

  async count(tx: TenantTx): Promise<number> {
    const [row] = await tx.db
      .select({ value: count() })
      .from(adAccounts)
      .where(eq(adAccounts.workspaceId, tx.workspaceId));
    return row?.value ?? 0;
  }

  /**
   * Sets the account's sync state to `syncing` when its mirror is older than `staleBefore` and no sync holds it (or
   * the one holding it has not been heard of since `abandonedBefore`), in one statement: of concurrent claimants,
   * one wins. Only the sync state machine (sync-state.ts) calls it.
   */
  async claimSync(tx: TenantTx, id: string, staleBefore: Date, abandonedBefore: Date, at: Date): Promise<boolean> {
    const rows = await tx.db
      .update(adAccounts)
      .set({ syncStatus: 'syncing', updatedAt: at })
      .where(
        and(
          eq(adAccounts.workspaceId, tx.workspaceId),
          eq(adAccounts.id, id),
          eq(adAccounts.needsReauth, false),
          or(isNull(adAccounts.lastSync), lt(adAccounts.lastSync, staleBefore)),
          or(ne(adAccounts.syncStatus, 'syncing'), lt(adAccounts.updatedAt, abandonedBefore)),
        ),
      )
      .returning({ id: adAccounts.id });
    return rows.length === 1;
  }

  /**
   * Every tenant's `queued` or `syncing` states not touched since `before` become `error` with `code`: a cross-tenant
   * update on the system path. Only the sync state machine (sync-state.ts) calls it.
   */
  async failStaleSyncs(tx: SystemTx, before: Date, code: string, now: Date): Promise<number> {
    const rows = await tx.db
      .update(adAccounts)
      .set({ syncStatus: 'error', lastSyncError: code, updatedAt: now })
      .where(and(inArray(adAccounts.syncStatus, ['queued', 'syncing']), lt(adAccounts.updatedAt, before)))
      .returning({ id: adAccounts.id });
    return rows.length;
  }

  async delete(tx: TenantTx, id: string): Promise<boolean> {
    const rows = await tx.db
      .delete(adAccounts)
      .where(and(eq(adAccounts.workspaceId, tx.workspaceId), eq(adAccounts.id, id)))
      .returning({ id: adAccounts.id });
    return rows.length === 1;
  }

  /** Mirrors the account's campaigns, ad sets and ads; entities gone from Meta are marked DELETED, not dropped. */
  async replaceEntities(tx: TenantTx, adAccountId: string, entities: EntityInput[], syncedAt: Date): Promise<void> {
    const workspaceId = tx.workspaceId;
    for (const part of chunks(entities)) {
      await tx.db
        .insert(adEntities)
        .values(part.map((entity) => ({ ...entity, workspaceId, adAccountId, syncedAt })))
        .onConflictDoUpdate({
          target: [adEntities.adAccountId, adEntities.externalId],
          set: {
            ...takeExcluded(adEntities, [
              'name',
              'status',
              'effectiveStatus',
              'campaignExternalId',
              'adsetExternalId',
              'dailyBudget',
              'lifetimeBudget',
              'learningStatus',
              'createdTime',
              'updatedTime',
              'syncedAt',
            ]),
          },
        });
    }
    await tx.db
      .update(adEntities)
      .set({ status: 'DELETED', effectiveStatus: 'DELETED' })
      .where(
        and(
          eq(adEntities.workspaceId, workspaceId),
          eq(adEntities.adAccountId, adAccountId),
          lt(adEntities.syncedAt, syncedAt),
        ),
      );
  }

  /** Stores daily insights per level; upserts, so a repeated sync changes nothing. */
  async upsertInsights(
    tx: TenantTx,
    adAccountId: string,
    levels: { level: EntityLevel; rows: InsightInput[] }[],
  ): Promise<void> {
    for (const { level, rows } of levels) {
      if (rows.length === 0) continue;
      // One statement per level: the rows travel as one JSON parameter instead of thousands of bind parameters.
      await tx.db.execute(sql`
        insert into insights_daily (workspace_id, ad_account_id, level, entity_external_id, date, spend, impressions, reach, clicks, link_clicks, conversions, conversion_value, updated_at)
        select ${tx.workspaceId}, ${adAccountId}, ${level}, r.id, r.date, r.spend, r.impressions, r.reach, r.clicks, r.link_clicks, r.conversions, r.conversion_value, now()
        from json_to_recordset(${JSON.stringify(rows.map(toInsightRecord))}::json)
          as r(id text, date date, spend numeric, impressions bigint, reach bigint, clicks bigint, link_clicks bigint, conversions numeric, conversion_value numeric)
        on conflict (ad_account_id, level, entity_external_id, date) do update set
          spend = excluded.spend, impressions = excluded.impressions, reach = excluded.reach, clicks = excluded.clicks,
          link_clicks = excluded.link_clicks, conversions = excluded.conversions, conversion_value = excluded.conversion_value,
          updated_at = now()`);
    }
    // The explorer's cached sums of this account are keyed by this version (ADR 0100).
    await tx.db.execute(
      sql`update ad_accounts set insights_version = insights_version + 1 where id = ${adAccountId} and workspace_id = ${tx.workspaceId}`,
    );
  }

  /** Account totals per day, from the ad-level rows. */
  dailyTotals(tx: TenantTx, adAccountId: string, since: string, until: string): Promise<DailyTotals[]> {
    return tx.db
      .select({
        date: insightsDaily.date,
        spend: sql<number>`coalesce(sum(${insightsDaily.spend}), 0)::float8`,
        impressions: sql<number>`coalesce(sum(${insightsDaily.impressions}), 0)::float8`,
        reach: sql<number>`coalesce(sum(${insightsDaily.reach}), 0)::float8`,
        clicks: sql<number>`coalesce(sum(${insightsDaily.clicks}), 0)::float8`,
        linkClicks: sql<number>`coalesce(sum(${insightsDaily.linkClicks}), 0)::float8`,
        conversions: sql<number>`coalesce(sum(${insightsDaily.conversions}), 0)::float8`,
        conversionValue: sql<number>`coalesce(sum(${insightsDaily.conversionValue}), 0)::float8`,
      })
      .from(insightsDaily)
      .where(
        and(
          eq(insightsDaily.workspaceId, tx.workspaceId),
          eq(insightsDaily.adAccountId, adAccountId),
          eq(insightsDaily.level, 'ad'),
          gte(insightsDaily.date, since),
          lte(insightsDaily.date, until),
        ),
      )
      .groupBy(insightsDaily.date)
      .orderBy(asc(insightsDaily.date));
  }

  entityCounts(tx: TenantTx, adAccountId: string): Promise<{ level: string; n: number }[]> {
    return tx.db
      .select({ level: adEntities.level, n: count() })
      .from(adEntities)
      .where(
        and(
          eq(adEntities.workspaceId, tx.workspaceId),
          eq(adEntities.adAccountId, adAccountId),
          sql`${adEntities.status} <> 'DELETED'`,
        ),
      )
      .groupBy(adEntities.level);
  }

  /** Accounts of every tenant due for a scheduled sync: the scheduler's query, on the system path. */
  findDueForSync(tx: SystemTx, before: Date, limit: number): Promise<{ id: string; workspaceId: string }[]> {
    return tx.db
      .select({ id: adAccounts.id, workspaceId: adAccounts.workspaceId })
      .from(adAccounts)
      .where(
        and(
          eq(adAccounts.autoSync, true),
          eq(adAccounts.needsReauth, false),
          or(isNull(adAccounts.lastSync), lt(adAccounts.lastSync, before)),
        ),
      )
      .orderBy(sql`${adAccounts.lastSync} asc nulls first`)
      .limit(limit);
  }

  async createOAuthState(
    tx: TenantTx,
    input: { stateHash: string; provider: string; redirectUri: string; expiresAt: Date },
  ): Promise<void> {
    await tx.db.insert(oauthStates).values({ ...input, userId: personOf(tx), workspaceId: tx.workspaceId });
  }

  /** Every tenant's OAuth states that can no longer be used (expired or spent): the clean-up, on the system path. */
  async purgeSpentOAuthStates(tx: SystemTx, now: Date): Promise<number> {
    const rows = await tx.db
      .delete(oauthStates)
      .where(or(lt(oauthStates.expiresAt, now), isNotNull(oauthStates.usedAt)))
      .returning({ id: oauthStates.id });
    return rows.length;
  }

  /**
   * Takes a state once, only for the user it was issued to, in the workspace it was issued in, and before it
   * expires.
   */
  async consumeOAuthState(tx: TenantTx, stateHash: string, now: Date): Promise<{ redirectUri: string } | undefined> {
    const [row] = await tx.db
      .update(oauthStates)
      .set({ usedAt: now })
      .where(
        and(
          eq(oauthStates.userId, personOf(tx)),
          eq(oauthStates.workspaceId, tx.workspaceId),
          eq(oauthStates.stateHash, stateHash),
          isNull(oauthStates.usedAt),
          gt(oauthStates.expiresAt, now),
        ),
      )
      .returning({ redirectUri: oauthStates.redirectUri });
    return row;
  }
}
