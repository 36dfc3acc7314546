import type { EntityLevel } from '@adpilot/contracts';
import {
  adAccounts,
  adEntities,
  insightsDaily,
  type AdAccountRow,
  type AdEntityRow,
  type InsightsDailyRow,
} from '@adpilot/db';
import { and, asc, eq, gte, inArray, isNull, lt, ne, or } from 'drizzle-orm';
import type { SystemTx, TenantTx } from '@adpilot/db';

/** What rules read of the mirror: the accounts in scope, their entities and daily insights. */
export class RuleInputsRepository {
  /** The caller's accounts among `ids`, or all of them when `ids` is empty. */
  accounts(tx: TenantTx, ids: readonly string[]): Promise<AdAccountRow[]> {
    const mine = eq(adAccounts.userId, tx.userId);
    return tx.db
      .select()
      .from(adAccounts)
      .where(ids.length > 0 ? and(mine, inArray(adAccounts.id, [...ids])) : mine)
      .orderBy(asc(adAccounts.createdAt));
  }

  /** Every entity of the accounts that still exists on Meta: the judged level and their parents (budget holders). */
  entities(tx: TenantTx, adAccountIds: readonly string[]): Promise<AdEntityRow[]> {
    if (adAccountIds.length === 0) return Promise.resolve([]);
    return tx.db
      .select()
      .from(adEntities)
      .where(
        and(
          eq(adEntities.userId, tx.userId),
          inArray(adEntities.adAccountId, [...adAccountIds]),
          ne(adEntities.status, 'DELETED'),
        ),
      );
  }

  /** Daily rows of one level since a date (the oldest any window reads). */
  insights(
    tx: TenantTx,
    adAccountIds: readonly string[],
    level: EntityLevel,
    since: string,
  ): Promise<InsightsDailyRow[]> {
    if (adAccountIds.length === 0) return Promise.resolve([]);
    return tx.db
      .select()
      .from(insightsDaily)
      .where(
        and(
          eq(insightsDaily.userId, tx.userId),
          inArray(insightsDaily.adAccountId, [...adAccountIds]),
          eq(insightsDaily.level, level),
          gte(insightsDaily.date, since),
        ),
      );
  }

  /** Keeps the mirror true after a write we made, so the next rule of the slot sees it before the next sync. */
  async recordWrite(
    tx: TenantTx,
    adAccountId: string,
    externalId: string,
    change: { status: string } | { dailyBudget: number } | { lifetimeBudget: number },
  ): Promise<void> {
    await tx.db
      .update(adEntities)
      .set(change)
      .where(
        and(
          eq(adEntities.userId, tx.userId),
          eq(adEntities.adAccountId, adAccountId),
          eq(adEntities.externalId, externalId),
        ),
      );
  }

  async account(tx: TenantTx, id: string): Promise<AdAccountRow | undefined> {
    const [row] = await this.accounts(tx, [id]);
    return row;
  }

  /**
   * Claims the refresh of an account whose mirror is older than `staleBefore`: one claimant at a time, whatever the
   * process, through the account's own sync status (a sync already running is waited for, not repeated). A claim
   * left by a crashed worker counts as free once older than `abandonedBefore`.
   */
  async claimRefresh(tx: TenantTx, id: string, staleBefore: Date, abandonedBefore: Date, at: Date): Promise<boolean> {
    const rows = await tx.db
      .update(adAccounts)
      .set({ syncStatus: 'syncing', updatedAt: at })
      .where(
        and(
          eq(adAccounts.userId, tx.userId),
          eq(adAccounts.id, id),
          eq(adAccounts.needsReauth, false),
          or(isNull(adAccounts.lastSync), lt(adAccounts.lastSync, staleBefore)),
          or(ne(adAccounts.syncStatus, 'syncing'), lt(adAccounts.updatedAt, abandonedBefore)),
        ),
      )
      .returning({ id: adAccounts.id });
    return rows.length === 1;
  }

  /** The time zones of every user's accounts, for the tick's daily slots (a cross-tenant read). */
  accountZones(tx: SystemTx): Promise<{ id: string; userId: string; timezone: string }[]> {
    return tx.db
      .select({ id: adAccounts.id, userId: adAccounts.userId, timezone: adAccounts.timezone })
      .from(adAccounts);
  }
}
