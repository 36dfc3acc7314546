import { adAccounts, adEntities, insightsDaily, type TenantTx } from '@adpilot/db';
import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';

export interface ReportAccount {
  id: string;
  name: string;
  currency: string;
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

/**
 * Reads `insights_daily` for reports. An account's day is the sum of its campaigns' rows (the top of the
 * hierarchy, so nothing is counted twice); the database sums, only days × series come back.
 */
export class ReportsRepository {
  async accounts(tx: TenantTx, adAccountId?: string): Promise<ReportAccount[]> {
    return tx.db
      .select({ id: adAccounts.id, name: adAccounts.facebookAccountName, currency: adAccounts.currency })
      .from(adAccounts)
      .where(and(eq(adAccounts.userId, tx.userId), adAccountId ? eq(adAccounts.id, adAccountId) : undefined))
      .orderBy(asc(adAccounts.facebookAccountName), asc(adAccounts.id));
  }

  /** The user's campaign rows of the range, reached through the (account, date) index by naming the accounts. */
  private where(tx: TenantTx, query: { from: string; to: string; adAccountIds: string[] }) {
    return and(
      eq(insightsDaily.userId, tx.userId),
      inArray(insightsDaily.adAccountId, query.adAccountIds),
      gte(insightsDaily.date, query.from),
      lte(insightsDaily.date, query.to),
      eq(insightsDaily.level, 'campaign'),
    );
  }

  /** Each account's days (the sum of its campaigns). */
  async accountDays(tx: TenantTx, query: { from: string; to: string; adAccountIds: string[] }): Promise<ReportRow[]> {
    if (query.adAccountIds.length === 0) return [];
    const rows = await tx.db
      .select({ adAccountId: insightsDaily.adAccountId, date: insightsDaily.date, ...SUMS })
      .from(insightsDaily)
      .where(this.where(tx, query))
      .groupBy(insightsDaily.adAccountId, insightsDaily.date);
    return rows.map((row) => ({ ...numbers(row), campaignId: null, campaignName: null }));
  }

  /** Each campaign's totals over the range, with its name from the mirror. */
  async campaignTotals(
    tx: TenantTx,
    query: { from: string; to: string; adAccountIds: string[] },
  ): Promise<Omit<ReportRow, 'date'>[]> {
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
      .where(this.where(tx, query))
      .groupBy(insightsDaily.adAccountId, insightsDaily.entityExternalId);
    return rows.map((row) => ({ ...numbers(row), campaignId: row.campaignId, campaignName: row.campaignName }));
  }

  /** The days of the named campaigns only. */
  async campaignDays(
    tx: TenantTx,
    query: { from: string; to: string; adAccountIds: string[] },
    campaignIds: string[],
  ): Promise<ReportRow[]> {
    if (campaignIds.length === 0) return [];
    const rows = await tx.db
      .select({
        adAccountId: insightsDaily.adAccountId,
        campaignId: insightsDaily.entityExternalId,
        date: insightsDaily.date,
        ...SUMS,
      })
      .from(insightsDaily)
      .where(and(this.where(tx, query), inArray(insightsDaily.entityExternalId, campaignIds)))
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
