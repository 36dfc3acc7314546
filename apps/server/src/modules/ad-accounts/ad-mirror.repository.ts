import type { EntityLevel } from '@adpilot/contracts';
import {
  adAccounts,
  adEntities,
  insightsDaily,
  type AdAccountRow,
  type AdEntityRow,
  type InsightsDailyRow,
  type SystemTx,
  type TenantTx,
} from '@adpilot/db';
import { and, asc, eq, gte, inArray, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { effectiveStatusOf } from './effective-status.ts';

export interface ReportAccount {
  id: string;
  name: string;
  currency: string;
  /** The account's IANA zone: its local days are the report's days. */
  timeZone: string;
  /** The first local day the account has any campaign row (null: none yet); the days before it have no data. */
  firstDataDay: string | null;
}

export interface ReportRow {
  adAccountId: string;
  /** The campaign's Meta id; null on account rows. */
  campaignId: string | null;
  campaignName: string | null;
  date: string;
  spend: number;
  conversions: number;
  conversionValue: number;
}

/** A daily row of the mirror as the rule engine reads it. */
export type MirrorDailyRow = Pick<
  InsightsDailyRow,
  | 'adAccountId'
  | 'entityExternalId'
  | 'date'
  | 'spend'
  | 'impressions'
  | 'reach'
  | 'clicks'
  | 'linkClicks'
  | 'conversions'
  | 'conversionValue'
>;

/** A daily row on the wire: account, entity, date, then the seven figures in MirrorDailyRow's order. */
type DailyTuple = [string, string, string, number, number, number, number, number, number, number];

export interface EntityKey {
  adAccountId: string;
  level: EntityLevel;
  externalId: string;
}

export interface EntityRange extends EntityKey {
  from: string;
  to: string;
}

export interface EntityDays extends EntityKey {
  /** [day number (days since 1970-01-01), spend, conversions, conversion value], money in major units. */
  days: [number, number, number, number][];
}

export interface ReportScope {
  from: string;
  to: string;
  adAccountIds: string[];
}

/**
 * What other modules read of the mirror (the accounts, their entities and daily insights), each read in the
 * caller's unit of work: the rule engine's snapshot and the reports' sums. Every method filters by the caller's
 * user as well as row-level security does.
 */
export class AdMirrorRepository {
  /** The caller's accounts among `ids`, or all of them when `ids` is empty. */
  accounts(tx: TenantTx, ids: readonly string[]): Promise<AdAccountRow[]> {
    const mine = eq(adAccounts.workspaceId, tx.workspaceId);
    return tx.db
      .select()
      .from(adAccounts)
      .where(ids.length > 0 ? and(mine, inArray(adAccounts.id, [...ids])) : mine)
      .orderBy(asc(adAccounts.createdAt));
  }

  async account(tx: TenantTx, id: string): Promise<AdAccountRow | undefined> {
    const [row] = await this.accounts(tx, [id]);
    return row;
  }

  /** Every entity of the accounts that still exists on Meta: the judged level and their parents (budget holders). */
  entities(tx: TenantTx, adAccountIds: readonly string[]): Promise<AdEntityRow[]> {
    if (adAccountIds.length === 0) return Promise.resolve([]);
    return tx.db
      .select()
      .from(adEntities)
      .where(
        and(
          eq(adEntities.workspaceId, tx.workspaceId),
          inArray(adEntities.adAccountId, [...adAccountIds]),
          ne(adEntities.status, 'DELETED'),
        ),
      );
  }

  /**
   * Daily rows of one level since a date (the oldest any window reads), with the figures the rule engine reads.
   * Every rule of a slot reads its accounts' rows again (thousands each); Postgres sends them as one JSON array,
   * which costs the process one JSON.parse instead of mapping every row and column through the query builder.
   */
  async insights(
    tx: TenantTx,
    adAccountIds: readonly string[],
    level: EntityLevel,
    since: string,
  ): Promise<MirrorDailyRow[]> {
    if (adAccountIds.length === 0) return [];
    const i = insightsDaily;
    // Both drivers answer raw SQL with `rows`; json is parsed by pg, PGlite may hand it over as text.
    const result = (await tx.db.execute(sql`
      select coalesce(json_agg(json_build_array(${i.adAccountId}, ${i.entityExternalId}, ${i.date}, ${i.spend},
        ${i.impressions}, ${i.reach}, ${i.clicks}, ${i.linkClicks}, ${i.conversions}, ${i.conversionValue})), '[]') as "rows"
      from ${i}
      where ${and(
        eq(i.workspaceId, tx.workspaceId),
        inArray(i.adAccountId, [...adAccountIds]),
        eq(i.level, level),
        gte(i.date, since),
      )}`)) as unknown as { rows: { rows: unknown }[] };
    const raw = result.rows[0]?.rows ?? [];
    const rows = (typeof raw === 'string' ? JSON.parse(raw) : raw) as DailyTuple[];
    return rows.map(([adAccountId, entityExternalId, date, ...figures]) => ({
      adAccountId,
      entityExternalId,
      date,
      // json carries numeric and bigint as numbers: the values the query builder's number mode gave.
      spend: Number(figures[0]),
      impressions: Number(figures[1]),
      reach: Number(figures[2]),
      clicks: Number(figures[3]),
      linkClicks: Number(figures[4]),
      conversions: Number(figures[5]),
      conversionValue: Number(figures[6]),
    }));
  }

  /**
   * The daily rows of the named entities, each within its own from…to (a rule's impact): one query, the entities
   * passed as one JSON parameter and joined on the primary key (account, level, entity, date); one row per entity
   * with its days as [day number (days since 1970-01-01), spend, conversions, conversion value].
   */
  async entityDays(tx: TenantTx, entities: readonly EntityRange[]): Promise<EntityDays[]> {
    if (entities.length === 0) return [];
    const keys = entities.map((e) => ({ a: e.adAccountId, l: e.level, x: e.externalId, f: e.from, t: e.to }));
    // Both drivers answer raw SQL with `rows`, and parse json.
    const result = (await tx.db.execute(sql`
      select e.a as "adAccountId", e.l as "level", e.x as "externalId",
             json_agg(json_build_array(i.date - date '1970-01-01', i.spend, i.conversions, i.conversion_value)) as "days"
      from json_to_recordset(${JSON.stringify(keys)}::json) as e(a uuid, l text, x text, f date, t date)
      join ${insightsDaily} i
        on i.ad_account_id = e.a and i.level = e.l and i.entity_external_id = e.x and i.date between e.f and e.t
      where i.workspace_id = ${tx.workspaceId}
      group by e.a, e.l, e.x`)) as unknown as { rows: (EntityKey & { days: unknown })[] };
    return result.rows.map((row) => ({
      adAccountId: row.adAccountId,
      level: row.level,
      externalId: row.externalId,
      days: (typeof row.days === 'string' ? JSON.parse(row.days) : row.days) as EntityDays['days'],
    }));
  }

  /**
   * Keeps the mirror true after a write we made, so the next rule of the slot (and the explorer) sees it before the
   * next sync: a new status also gives the entity and the entities under it the effective status Meta derives.
   */
  async recordWrite(
    tx: TenantTx,
    adAccountId: string,
    externalId: string,
    change: { status: string } | { dailyBudget: number } | { lifetimeBudget: number },
  ): Promise<void> {
    const inAccount = and(eq(adEntities.workspaceId, tx.workspaceId), eq(adEntities.adAccountId, adAccountId));
    const [entity] = await tx.db
      .update(adEntities)
      .set(change)
      .where(and(inAccount, eq(adEntities.externalId, externalId)))
      .returning({ campaign: adEntities.campaignExternalId, adset: adEntities.adsetExternalId });
    if (entity && 'status' in change) await this.deriveEffectiveStatus(tx, inAccount, externalId, entity);
  }

  /** The effective status of an entity whose status changed, and of its ad sets and ads, from the mirror's statuses. */
  private async deriveEffectiveStatus(
    tx: TenantTx,
    inAccount: SQL | undefined,
    externalId: string,
    entity: { campaign: string | null; adset: string | null },
  ): Promise<void> {
    const related = [externalId, entity.campaign, entity.adset].filter((id): id is string => id !== null);
    const rows = await tx.db
      .select({
        externalId: adEntities.externalId,
        status: adEntities.status,
        effectiveStatus: adEntities.effectiveStatus,
        campaign: adEntities.campaignExternalId,
        adset: adEntities.adsetExternalId,
      })
      .from(adEntities)
      .where(
        and(
          inAccount,
          or(
            inArray(adEntities.externalId, related),
            eq(adEntities.campaignExternalId, externalId),
            eq(adEntities.adsetExternalId, externalId),
          ),
        ),
      );
    const statusOf = new Map(rows.map((row) => [row.externalId, row.status]));
    const affected = rows.filter(
      (row) => row.externalId === externalId || row.campaign === externalId || row.adset === externalId,
    );
    // One update per new status, not per entity: a campaign's pause reaches every ad set and ad under it.
    const moved = new Map<string, string[]>();
    for (const row of affected) {
      const effective = effectiveStatusOf({
        status: row.status,
        effectiveStatus: row.effectiveStatus,
        campaignStatus: row.campaign ? (statusOf.get(row.campaign) ?? null) : null,
        adsetStatus: row.adset ? (statusOf.get(row.adset) ?? null) : null,
      });
      if (effective !== row.effectiveStatus) moved.set(effective, [...(moved.get(effective) ?? []), row.externalId]);
    }
    for (const [effective, ids] of moved)
      await tx.db
        .update(adEntities)
        .set({ effectiveStatus: effective })
        .where(and(inAccount, inArray(adEntities.externalId, ids)));
  }

  /** The time zones of every user's accounts, for the rule tick's daily slots (a cross-tenant read). */
  accountZones(tx: SystemTx): Promise<{ id: string; workspaceId: string; timezone: string }[]> {
    return tx.db
      .select({ id: adAccounts.id, workspaceId: adAccounts.workspaceId, timezone: adAccounts.timezone })
      .from(adAccounts);
  }

  /** The accounts a report covers: one, or all of the user's, by name. */
  reportAccounts(tx: TenantTx, adAccountId?: string): Promise<ReportAccount[]> {
    return tx.db
      .select({
        id: adAccounts.id,
        name: adAccounts.facebookAccountName,
        currency: adAccounts.currency,
        timeZone: adAccounts.timezone,
        firstDataDay: sql<string | null>`(select min(${insightsDaily.date})::text from ${insightsDaily}
          where ${insightsDaily.adAccountId} = ${adAccounts.id} and ${insightsDaily.level} = 'campaign')`,
      })
      .from(adAccounts)
      .where(and(eq(adAccounts.workspaceId, tx.workspaceId), adAccountId ? eq(adAccounts.id, adAccountId) : undefined))
      .orderBy(asc(adAccounts.facebookAccountName), asc(adAccounts.id));
  }

  /**
   * The user's campaign rows of the range, reached through the (account, date) index by naming the accounts. An
   * account's day is the sum of its campaigns' rows (the top of the hierarchy, so nothing is counted twice); the
   * database sums, only days × series come back.
   */
  private reportWhere(tx: TenantTx, query: ReportScope) {
    return and(
      eq(insightsDaily.workspaceId, tx.workspaceId),
      inArray(insightsDaily.adAccountId, query.adAccountIds),
      gte(insightsDaily.date, query.from),
      lte(insightsDaily.date, query.to),
      eq(insightsDaily.level, 'campaign'),
    );
  }

  /** Each account's days (the sum of its campaigns). */
  async reportAccountDays(tx: TenantTx, query: ReportScope): Promise<ReportRow[]> {
    if (query.adAccountIds.length === 0) return [];
    const rows = await tx.db
      .select({ adAccountId: insightsDaily.adAccountId, date: insightsDaily.date, ...SUMS })
      .from(insightsDaily)
      .where(this.reportWhere(tx, query))
      .groupBy(insightsDaily.adAccountId, insightsDaily.date);
    return rows.map((row) => ({ ...numbers(row), campaignId: null, campaignName: null }));
  }

  /** Each campaign's totals over the range, with its name from the mirror. */
  async reportCampaignTotals(tx: TenantTx, query: ReportScope): Promise<Omit<ReportRow, 'date'>[]> {
    if (query.adAccountIds.length === 0) return [];
    const rows = await tx.db
      .select({
        adAccountId: insightsDaily.adAccountId,
        campaignId: insightsDaily.entityExternalId,
        campaignName: sql<string | null>`max(${adEntities.name})`,
        date: sql<string>`''`,
        ...SUMS,
      })
      .from(insightsDaily)
      .leftJoin(
        adEntities,
        and(
          eq(adEntities.adAccountId, insightsDaily.adAccountId),
          eq(adEntities.externalId, insightsDaily.entityExternalId),
        ),
      )
      .where(this.reportWhere(tx, query))
      .groupBy(insightsDaily.adAccountId, insightsDaily.entityExternalId);
    return rows.map((row) => ({ ...numbers(row), campaignId: row.campaignId, campaignName: row.campaignName }));
  }

  /** The days of the named campaigns only. */
  async reportCampaignDays(tx: TenantTx, query: ReportScope, campaignIds: string[]): Promise<ReportRow[]> {
    if (campaignIds.length === 0) return [];
    const rows = await tx.db
      .select({
        adAccountId: insightsDaily.adAccountId,
        campaignId: insightsDaily.entityExternalId,
        date: insightsDaily.date,
        ...SUMS,
      })
      .from(insightsDaily)
      .where(and(this.reportWhere(tx, query), inArray(insightsDaily.entityExternalId, campaignIds)))
      .groupBy(insightsDaily.adAccountId, insightsDaily.entityExternalId, insightsDaily.date);
    return rows.map((row) => ({ ...numbers(row), campaignId: row.campaignId, campaignName: null }));
  }
}

const SUMS = {
  spend: sql<string>`sum(${insightsDaily.spend})`,
  conversions: sql<string>`sum(${insightsDaily.conversions})`,
  conversionValue: sql<string>`sum(${insightsDaily.conversionValue})`,
};

function numbers(row: {
  adAccountId: string;
  date: string;
  spend: string;
  conversions: string;
  conversionValue: string;
}) {
  return {
    adAccountId: row.adAccountId,
    date: row.date,
    spend: Number(row.spend),
    conversions: Number(row.conversions),
    conversionValue: Number(row.conversionValue),
  };
}
