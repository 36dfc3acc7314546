import type { EntityLevel } from '@adpilot/contracts';
import type { AdAccountRow, AdEntityRow, SystemTx, TenantTx } from '@adpilot/db';
import { REFRESH_DAYS } from './ad-account-sync.service.ts';
import type {
  AdMirrorRepository,
  EntityDays,
  EntityKey,
  EntityRange,
  MirrorDailyRow,
  ReportAccount,
  ReportRow,
  ReportScope,
} from './ad-mirror.repository.ts';

export type { EntityDays, EntityKey, EntityRange, MirrorDailyRow, ReportAccount, ReportRow, ReportScope };

/** Local days before today that every sync still rewrites (Meta revises them): older days are final in the mirror. */
export const MIRROR_REVISED_DAYS = REFRESH_DAYS;

/**
 * The ad-accounts module's read API on its mirror of Meta (ADR 0066): the rule engine's snapshot (accounts,
 * entities, daily insights) and the reports' sums. Each method runs in the caller's unit of work, so a caller
 * reads the mirror inside its own transaction, under the same row-level security. The one write is the rule
 * executor's note of a change it made at Meta, so the next rule of the slot sees it before the next sync.
 */
export class AdMirrorService {
  constructor(private readonly repository: AdMirrorRepository) {}

  /** The caller's accounts among `ids`, or all of them when `ids` is empty, oldest first. */
  accounts(tx: TenantTx, ids: readonly string[]): Promise<AdAccountRow[]> {
    return this.repository.accounts(tx, ids);
  }

  account(tx: TenantTx, id: string): Promise<AdAccountRow | undefined> {
    return this.repository.account(tx, id);
  }

  /** Every entity of the accounts that still exists on Meta. */
  entities(tx: TenantTx, adAccountIds: readonly string[]): Promise<AdEntityRow[]> {
    return this.repository.entities(tx, adAccountIds);
  }

  /** Daily rows of one level since a date. */
  insights(
    tx: TenantTx,
    adAccountIds: readonly string[],
    level: EntityLevel,
    since: string,
  ): Promise<MirrorDailyRow[]> {
    return this.repository.insights(tx, adAccountIds, level, since);
  }

  /** The named entities' days, each within its own from…to (local dates). */
  entityDays(tx: TenantTx, entities: readonly EntityRange[]): Promise<EntityDays[]> {
    return this.repository.entityDays(tx, entities);
  }

  recordWrite(
    tx: TenantTx,
    adAccountId: string,
    externalId: string,
    change: { status: string } | { dailyBudget: number } | { lifetimeBudget: number },
  ): Promise<void> {
    return this.repository.recordWrite(tx, adAccountId, externalId, change);
  }

  /** Every user's accounts with their time zones (the rule tick, on the system path). */
  accountZones(tx: SystemTx): Promise<{ id: string; workspaceId: string; timezone: string }[]> {
    return this.repository.accountZones(tx);
  }

  reportAccounts(tx: TenantTx, adAccountId?: string): Promise<ReportAccount[]> {
    return this.repository.reportAccounts(tx, adAccountId);
  }

  /** Each account's days: the sums of its campaign rows. */
  reportAccountDays(tx: TenantTx, scope: ReportScope): Promise<ReportRow[]> {
    return this.repository.reportAccountDays(tx, scope);
  }

  /** Each campaign's totals over the range, named from the mirror. */
  reportCampaignTotals(tx: TenantTx, scope: ReportScope): Promise<Omit<ReportRow, 'date'>[]> {
    return this.repository.reportCampaignTotals(tx, scope);
  }

  reportCampaignDays(tx: TenantTx, scope: ReportScope, campaignIds: string[]): Promise<ReportRow[]> {
    return this.repository.reportCampaignDays(tx, scope, campaignIds);
  }
}
