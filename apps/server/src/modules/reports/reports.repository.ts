import { adAccounts, adEntities, insightsDaily, type TenantTx } from '@adpilot/db';
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';

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

  async days(
    tx: TenantTx,
    query: { from: string; to: string; adAccountId?: string; level: 'account' | 'campaign' },
  ): Promise<ReportRow[]> {
    const where = and(
      eq(insightsDaily.userId, tx.userId),
      eq(insightsDaily.level, 'campaign'),
      gte(insightsDaily.date, query.from),
      lte(insightsDaily.date, query.to),
      query.adAccountId ? eq(insightsDaily.adAccountId, query.adAccountId) : undefined,
    );
    const sums = {
      spend: sql<string>`sum(${insightsDaily.spend})`,
      conversions: sql<string>`sum(${insightsDaily.conversions})`,
      conversionValue: sql<string>`sum(${insightsDaily.conversionValue})`,
    };
    if (query.level === 'account') {
      const rows = await tx.db
        .select({ adAccountId: insightsDaily.adAccountId, date: insightsDaily.date, ...sums })
        .from(insightsDaily)
        .where(where)
        .groupBy(insightsDaily.adAccountId, insightsDaily.date);
      return rows.map((row) => ({ ...numbers(row), campaignId: null, campaignName: null }));
    }
    const rows = await tx.db
      .select({
        adAccountId: insightsDaily.adAccountId,
        campaignId: insightsDaily.entityExternalId,
        campaignName: sql<string | null>`max(${adEntities.name})`,
        date: insightsDaily.date,
        ...sums,
      })
      .from(insightsDaily)
      .leftJoin(
        adEntities,
        and(
          eq(adEntities.adAccountId, insightsDaily.adAccountId),
          eq(adEntities.externalId, insightsDaily.entityExternalId),
        ),
      )
      .where(where)
      .groupBy(insightsDaily.adAccountId, insightsDaily.entityExternalId, insightsDaily.date);
    return rows.map((row) => ({ ...numbers(row), campaignId: row.campaignId, campaignName: row.campaignName }));
  }
}

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
