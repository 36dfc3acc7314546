import {
  adEntities,
  anomalyEpisodes,
  insightsDaily,
  monthlyBudgets,
  type AnomalyEpisodeRow,
  type MonthlyBudgetRow,
  type TenantTx,
} from '@adpilot/db';
import { and, asc, between, eq, inArray, isNull, sql } from 'drizzle-orm';

/** One campaign's figures on one local day (money in major units). */
export interface CampaignDay {
  campaignExternalId: string;
  date: string;
  spend: number;
  impressions: number;
  conversions: number;
}

/** A campaign as the watch needs it: whether it may deliver, and with a budget. */
export interface WatchedCampaign {
  externalId: string;
  name: string;
  effectiveStatus: string;
  /** A daily or lifetime budget on the campaign or on one of its active ad sets. */
  hasBudget: boolean;
}

/**
 * The monthly budgets and anomaly episodes of an account (ADR 0124, 0125) and the reads of the mirror they are
 * judged on, all in the caller's unit of work.
 */
export class SignalsRepository {
  budgets(tx: TenantTx, adAccountId: string): Promise<MonthlyBudgetRow[]> {
    return tx.db
      .select()
      .from(monthlyBudgets)
      .where(and(eq(monthlyBudgets.workspaceId, tx.workspaceId), eq(monthlyBudgets.adAccountId, adAccountId)))
      .orderBy(asc(monthlyBudgets.campaignExternalId));
  }

  /** Sets a budget; a new amount is judged afresh, so the months already alerted are forgotten. */
  async setBudget(tx: TenantTx, adAccountId: string, campaignExternalId: string, amount: number): Promise<void> {
    await tx.db
      .insert(monthlyBudgets)
      .values({ workspaceId: tx.workspaceId, adAccountId, campaignExternalId, amount })
      .onConflictDoUpdate({
        target: [monthlyBudgets.adAccountId, monthlyBudgets.campaignExternalId],
        set: { amount, overAlertedMonth: null, underAlertedMonth: null, updatedAt: new Date() },
      });
  }

  async removeBudget(tx: TenantTx, adAccountId: string, campaignExternalId: string): Promise<void> {
    await tx.db
      .delete(monthlyBudgets)
      .where(
        and(
          eq(monthlyBudgets.workspaceId, tx.workspaceId),
          eq(monthlyBudgets.adAccountId, adAccountId),
          eq(monthlyBudgets.campaignExternalId, campaignExternalId),
        ),
      );
  }

  /**
   * Claims the month's alert of a kind for a budget: true for the one caller that moved the month (concurrent
   * syncs of one account raise it once).
   */
  async claimAlert(tx: TenantTx, budgetId: string, kind: 'over' | 'under', month: string): Promise<boolean> {
    const column = kind === 'over' ? monthlyBudgets.overAlertedMonth : monthlyBudgets.underAlertedMonth;
    const rows = await tx.db
      .update(monthlyBudgets)
      .set(kind === 'over' ? { overAlertedMonth: month } : { underAlertedMonth: month })
      .where(
        and(
          eq(monthlyBudgets.workspaceId, tx.workspaceId),
          eq(monthlyBudgets.id, budgetId),
          sql`${column} is distinct from ${month}`,
        ),
      )
      .returning({ id: monthlyBudgets.id });
    return rows.length === 1;
  }

  /** Each campaign's daily figures from `from` to `to` (local dates), from the mirror's campaign rows. */
  async campaignDays(tx: TenantTx, adAccountId: string, from: string, to: string): Promise<CampaignDay[]> {
    const i = insightsDaily;
    const rows = await tx.db
      .select({
        campaignExternalId: i.entityExternalId,
        date: i.date,
        spend: i.spend,
        impressions: i.impressions,
        conversions: i.conversions,
      })
      .from(i)
      .where(
        and(
          eq(i.workspaceId, tx.workspaceId),
          eq(i.adAccountId, adAccountId),
          eq(i.level, 'campaign'),
          between(i.date, from, to),
        ),
      );
    return rows.map((row) => ({
      ...row,
      spend: Number(row.spend),
      impressions: Number(row.impressions),
      conversions: Number(row.conversions),
    }));
  }

  /** The account's campaigns (names for the budgets, statuses and budgets for the zero-delivery watch). */
  async campaigns(tx: TenantTx, adAccountId: string): Promise<WatchedCampaign[]> {
    const e = adEntities;
    const rows = await tx.db
      .select({
        level: e.level,
        externalId: e.externalId,
        campaignExternalId: e.campaignExternalId,
        name: e.name,
        effectiveStatus: e.effectiveStatus,
        dailyBudget: e.dailyBudget,
        lifetimeBudget: e.lifetimeBudget,
      })
      .from(e)
      .where(
        and(eq(e.workspaceId, tx.workspaceId), eq(e.adAccountId, adAccountId), inArray(e.level, ['campaign', 'adset'])),
      );
    const funded = new Set<string>();
    for (const row of rows) {
      const budget = (row.dailyBudget ?? 0) > 0 || (row.lifetimeBudget ?? 0) > 0;
      if (!budget) continue;
      if (row.level === 'campaign') funded.add(row.externalId);
      else if (row.effectiveStatus === 'ACTIVE' && row.campaignExternalId) funded.add(row.campaignExternalId);
    }
    return rows
      .filter((row) => row.level === 'campaign')
      .map((row) => ({
        externalId: row.externalId,
        name: row.name,
        effectiveStatus: row.effectiveStatus,
        hasBudget: funded.has(row.externalId),
      }));
  }

  openEpisodes(tx: TenantTx, adAccountId: string): Promise<AnomalyEpisodeRow[]> {
    return tx.db
      .select()
      .from(anomalyEpisodes)
      .where(
        and(
          eq(anomalyEpisodes.workspaceId, tx.workspaceId),
          eq(anomalyEpisodes.adAccountId, adAccountId),
          isNull(anomalyEpisodes.endedAt),
        ),
      );
  }

  /**
   * Opens an episode; false when another check opened the same one meanwhile (the open-episode index), so each
   * episode is written once.
   */
  async openEpisode(
    tx: TenantTx,
    episode: Pick<AnomalyEpisodeRow, 'adAccountId' | 'metric' | 'entityExternalId' | 'direction' | 'day' | 'notified'>,
    at: Date,
  ): Promise<boolean> {
    const rows = await tx.db
      .insert(anomalyEpisodes)
      .values({ ...episode, workspaceId: tx.workspaceId, startedAt: at, lastSeenAt: at })
      .onConflictDoNothing()
      .returning({ id: anomalyEpisodes.id });
    return rows.length === 1;
  }

  async touchEpisodes(tx: TenantTx, ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await tx.db
      .update(anomalyEpisodes)
      .set({ lastSeenAt: at })
      .where(and(eq(anomalyEpisodes.workspaceId, tx.workspaceId), inArray(anomalyEpisodes.id, ids)));
  }

  async endEpisodes(tx: TenantTx, ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await tx.db
      .update(anomalyEpisodes)
      .set({ endedAt: at })
      .where(and(eq(anomalyEpisodes.workspaceId, tx.workspaceId), inArray(anomalyEpisodes.id, ids)));
  }
}
