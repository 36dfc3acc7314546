import type { EntityLevel } from '@adpilot/contracts';
import { adEntities, insightsDaily, type TenantTx } from '@adpilot/db';
import { sql, type SQL } from 'drizzle-orm';

/** One account's window as its own time zone makes it (local dates): the days read and the previous days. */
export interface AccountWindow {
  adAccountId: string;
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
  /** The account's insights version: the sums are kept by it (absent: read every time). */
  version?: number;
}

/** What the explorer filters on; every filter is applied in the database, before the sums are paged. */
export interface EntityFilter {
  level: EntityLevel;
  windows: readonly AccountWindow[];
  /** A campaign's or ad set's Meta id within its account. */
  parent?: { adAccountId: string; level: 'campaign' | 'adset'; externalId: string };
  /** Effective statuses; empty: every status but DELETED. */
  statuses: readonly string[];
  /** Part of the name, any case. */
  q?: string;
  /** Only these entities (our ids). */
  ids?: readonly string[];
}

/** Summable figures of an entity over some days (money in major units). */
export interface FigureSums {
  spend: number;
  impressions: number;
  reach: number;
  clicks: number;
  conversions: number;
  conversionValue: number;
}

/** A row of the explorer as the mirror holds it: the entity, its parents, its budget holder and its two sums. */
export interface EntityReadRow {
  id: string;
  adAccountId: string;
  level: EntityLevel;
  externalId: string;
  name: string;
  status: string;
  effectiveStatus: string;
  campaign: ParentRef | null;
  adSet: ParentRef | null;
  /** Minor units. */
  dailyBudget: number | null;
  lifetimeBudget: number | null;
  externalChangeAt: string | null;
  externalChangeBy: string | null;
  learningStatus: string | null;
  current: FigureSums;
  previous: FigureSums;
}

export interface EntityTotalsRow {
  currency: string;
  count: number;
  current: FigureSums;
  previous: FigureSums;
}

export interface EntityPage {
  rows: EntityReadRow[];
  totals: EntityTotalsRow[];
  total: number;
}

export interface ParentRef {
  id: string;
  externalId: string;
  name: string;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
}

type Raw = Record<string, unknown>;

const num = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));
const numOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function sums(raw: Raw, prefix: 'c' | 'p'): FigureSums {
  return {
    spend: num(raw[`${prefix}_spend`]),
    impressions: num(raw[`${prefix}_impressions`]),
    reach: num(raw[`${prefix}_reach`]),
    clicks: num(raw[`${prefix}_clicks`]),
    conversions: num(raw[`${prefix}_conversions`]),
    conversionValue: num(raw[`${prefix}_value`]),
  };
}

/** Each entity's sums over its account's window and the previous one, keyed `account|externalId`. */
export type WindowSums = Map<string, { current: FigureSums; previous: FigureSums }>;

/** An entity of the filtered level, with what its row needs of its parents, before any figure is joined. */
export type EntityBase = Omit<EntityReadRow, 'current' | 'previous'> & { currency: string };

/**
 * The explorer's read of the mirror (issue 28), in the caller's unit of work, as two statements whose plans do not
 * hang on the planner's estimates: the sums of one level over each account's two windows (one range scan of the
 * (account, level, date) index per account, split by day with `filter`), and the filtered entities with their
 * parents (one scan of the account's entities). The service joins, sorts and pages them.
 */
export class EntityReadRepository {
  async sums(tx: TenantTx, level: EntityLevel, window: AccountWindow): Promise<WindowSums> {
    const i = insightsDaily;
    const result = (await tx.db.execute(sql`
      select coalesce(json_agg(json_build_array(x, cs, ci, cr, cc, cv, cx, ps, pi, pr, pc, pv, px)), '[]') as "rows"
      from (
        select ${i.entityExternalId} as x,
          coalesce(sum(${i.spend}) filter (where ${i.date} >= ${window.from}), 0) as cs,
          coalesce(sum(${i.impressions}) filter (where ${i.date} >= ${window.from}), 0) as ci,
          coalesce(sum(${i.reach}) filter (where ${i.date} >= ${window.from}), 0) as cr,
          coalesce(sum(${i.clicks}) filter (where ${i.date} >= ${window.from}), 0) as cc,
          coalesce(sum(${i.conversions}) filter (where ${i.date} >= ${window.from}), 0) as cv,
          coalesce(sum(${i.conversionValue}) filter (where ${i.date} >= ${window.from}), 0) as cx,
          coalesce(sum(${i.spend}) filter (where ${i.date} <= ${window.previousTo}), 0) as ps,
          coalesce(sum(${i.impressions}) filter (where ${i.date} <= ${window.previousTo}), 0) as pi,
          coalesce(sum(${i.reach}) filter (where ${i.date} <= ${window.previousTo}), 0) as pr,
          coalesce(sum(${i.clicks}) filter (where ${i.date} <= ${window.previousTo}), 0) as pc,
          coalesce(sum(${i.conversions}) filter (where ${i.date} <= ${window.previousTo}), 0) as pv,
          coalesce(sum(${i.conversionValue}) filter (where ${i.date} <= ${window.previousTo}), 0) as px
        from ${i}
        where ${i.workspaceId} = ${tx.workspaceId} and ${i.adAccountId} = ${window.adAccountId} and ${i.level} = ${level}
          and ${i.date} between ${window.previousFrom} and ${window.to}
          and (${i.date} >= ${window.from} or ${i.date} <= ${window.previousTo})
        group by ${i.entityExternalId}) s`)) as unknown as { rows: { rows: unknown }[] };
    const raw = result.rows[0]?.rows ?? '[]';
    const rows = (typeof raw === 'string' ? JSON.parse(raw) : raw) as unknown[][];
    const out: WindowSums = new Map();
    for (const row of rows) {
      const n = (k: number) => Number(row[k] ?? 0);
      out.set(`${window.adAccountId}|${String(row[0])}`, {
        current: {
          spend: n(1),
          impressions: n(2),
          reach: n(3),
          clicks: n(4),
          conversions: n(5),
          conversionValue: n(6),
        },
        previous: {
          spend: n(7),
          impressions: n(8),
          reach: n(9),
          clicks: n(10),
          conversions: n(11),
          conversionValue: n(12),
        },
      });
    }
    return out;
  }

  /** The filtered entities of one level with their campaign and ad set (names, budgets), in no order. */
  async entities(
    tx: TenantTx,
    filter: Omit<EntityFilter, 'windows'> & { adAccountIds: readonly string[] },
  ): Promise<EntityBase[]> {
    if (filter.adAccountIds.length === 0) return [];
    const conditions: SQL[] = [
      sql`e.workspace_id = ${tx.workspaceId}`,
      sql`e.level = ${filter.level}`,
      sql`e.ad_account_id in (${sql.join(
        filter.adAccountIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    ];
    if (filter.statuses.length > 0)
      conditions.push(
        sql`e.effective_status in (${sql.join(
          filter.statuses.map((s) => sql`${s}`),
          sql`, `,
        )})`,
      );
    else conditions.push(sql`e.status <> 'DELETED'`);
    if (filter.q) conditions.push(sql`strpos(lower(e.name), lower(${filter.q})) > 0`);
    if (filter.ids)
      conditions.push(
        sql`e.id in (${sql.join(
          filter.ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      );
    if (filter.parent) {
      conditions.push(sql`e.ad_account_id = ${filter.parent.adAccountId}`);
      conditions.push(
        filter.parent.level === 'campaign'
          ? sql`e.campaign_external_id = ${filter.parent.externalId}`
          : sql`e.adset_external_id = ${filter.parent.externalId}`,
      );
    }
    const columns = sql`e.id, e.ad_account_id, e.level, e.external_id, e.name, e.status, e.effective_status,
      e.campaign_external_id, e.adset_external_id, e.daily_budget, e.lifetime_budget, e.external_change_at,
      e.external_change_by, e.learning_status`;
    // One after another: a unit of work is one connection.
    const wanted = await tx.db.execute(
      sql`select ${columns} from ${adEntities} e where ${sql.join(conditions, sql` and `)}`,
    );
    const parents =
      filter.level === 'campaign'
        ? { rows: [] }
        : await tx.db.execute(sql`select ${columns} from ${adEntities} e
            where e.workspace_id = ${tx.workspaceId}
              and e.ad_account_id in (${sql.join(
                filter.adAccountIds.map((id) => sql`${id}::uuid`),
                sql`, `,
              )})
              and e.level in (${filter.level === 'ad' ? sql`'campaign', 'adset'` : sql`'campaign'`})`);
    const currencies = await tx.db
      .execute(sql`select id, currency from ad_accounts where workspace_id = ${tx.workspaceId}
        and id in (${sql.join(
          filter.adAccountIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`);
    const rowsOf = (result: unknown) => (result as { rows: Raw[] }).rows;
    const currency = new Map(rowsOf(currencies).map((raw) => [String(raw.id), String(raw.currency)]));
    const byKey = new Map<string, Raw>();
    for (const raw of rowsOf(parents)) byKey.set(`${String(raw.ad_account_id)}|${String(raw.external_id)}`, raw);
    const parent = (account: string, externalId: unknown) => {
      if (externalId === null || externalId === undefined) return null;
      const raw = byKey.get(`${account}|${String(externalId)}`);
      return raw
        ? {
            id: String(raw.id),
            externalId: String(raw.external_id),
            name: String(raw.name),
            dailyBudget: numOrNull(raw.daily_budget),
            lifetimeBudget: numOrNull(raw.lifetime_budget),
            learningStatus: (raw.learning_status as string | null) ?? null,
          }
        : null;
    };
    return rowsOf(wanted).map((raw) => {
      const account = String(raw.ad_account_id);
      const level = raw.level as EntityLevel;
      const campaign = level === 'campaign' ? null : parent(account, raw.campaign_external_id);
      const adSet = level === 'ad' ? parent(account, raw.adset_external_id) : null;
      return {
        id: String(raw.id),
        adAccountId: account,
        level,
        externalId: String(raw.external_id),
        name: String(raw.name),
        status: String(raw.status),
        effectiveStatus: String(raw.effective_status),
        campaign,
        adSet,
        dailyBudget: numOrNull(raw.daily_budget),
        lifetimeBudget: numOrNull(raw.lifetime_budget),
        externalChangeAt: raw.external_change_at ? new Date(String(raw.external_change_at)).toISOString() : null,
        externalChangeBy: (raw.external_change_by as string | null) ?? null,
        learningStatus:
          level === 'ad' ? (adSet?.learningStatus ?? null) : ((raw.learning_status as string | null) ?? null),
        currency: currency.get(account) ?? '',
      };
    });
  }

  /** One entity of the workspace by our id, with its account (null: none such here). */
  async find(
    tx: TenantTx,
    id: string,
  ): Promise<{ adAccountId: string; level: EntityLevel; externalId: string } | null> {
    const result = (await tx.db.execute(sql`
      select ad_account_id as "adAccountId", level, external_id as "externalId" from ${adEntities}
      where workspace_id = ${tx.workspaceId} and id = ${id}`)) as unknown as {
      rows: { adAccountId: string; level: EntityLevel; externalId: string }[];
    };
    return result.rows[0] ?? null;
  }

  /** The days one entity has rows for within from…to, summed per day (the entity page's chart). */
  async days(
    tx: TenantTx,
    key: { adAccountId: string; level: EntityLevel; externalId: string },
    from: string,
    to: string,
  ): Promise<(FigureSums & { date: string })[]> {
    const i = insightsDaily;
    const result = (await tx.db.execute(sql`
      select ${i.date} as date, ${i.spend} as c_spend, ${i.impressions} as c_impressions, ${i.reach} as c_reach,
        ${i.clicks} as c_clicks, ${i.conversions} as c_conversions, ${i.conversionValue} as c_value
      from ${i}
      where ${i.workspaceId} = ${tx.workspaceId} and ${i.adAccountId} = ${key.adAccountId}
        and ${i.level} = ${key.level} and ${i.entityExternalId} = ${key.externalId}
        and ${i.date} between ${from} and ${to}
      order by ${i.date}`)) as unknown as { rows: Raw[] };
    return result.rows.map((raw) => ({ date: String(raw.date).slice(0, 10), ...sums(raw, 'c') }));
  }

  /** Each account's first local day with any data (null: none yet). */
  async firstDataDays(tx: TenantTx, adAccountIds: readonly string[]): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>(adAccountIds.map((id) => [id, null]));
    if (adAccountIds.length === 0) return out;
    const i = insightsDaily;
    const result = (await tx.db.execute(sql`
      select ${i.adAccountId} as "adAccountId", min(${i.date})::text as "first" from ${i}
      where ${i.workspaceId} = ${tx.workspaceId}
        and ${i.adAccountId} in (${sql.join(
          adAccountIds.map((id) => sql`${id}`),
          sql`, `,
        )})
        and ${i.level} = 'campaign'
      group by ${i.adAccountId}`)) as unknown as { rows: { adAccountId: string; first: string | null }[] };
    for (const row of result.rows) out.set(row.adAccountId, row.first);
    return out;
  }
}
