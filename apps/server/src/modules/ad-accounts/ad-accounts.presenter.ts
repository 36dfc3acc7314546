import { localDate, META_WRITE_SCOPE, type AdAccount } from '@adpilot/contracts';
import type { AdAccountRow } from '@adpilot/db';
import { accountHistory } from './history-backfill.ts';

/** Meta's account_status values (reference §2); 1, 8 and 9 can still deliver. */
const ACCOUNT_STATUS_TEXT: Record<number, string> = {
  1: 'Active',
  2: 'Disabled',
  3: 'Unsettled: an outstanding balance must be paid',
  7: 'Pending risk review',
  8: 'Pending settlement',
  9: 'In grace period',
  100: 'Pending closure',
  101: 'Closed',
};

export function accountStatusReason(row: Pick<AdAccountRow, 'metaAccountStatus' | 'disableReason'>): string | null {
  if (row.metaAccountStatus === 1) return null;
  const text = ACCOUNT_STATUS_TEXT[row.metaAccountStatus] ?? `Meta account status ${row.metaAccountStatus}`;
  return row.disableReason ? `${text} (disable reason ${row.disableReason})` : text;
}

export interface PresenterOptions {
  /**
   * Where "View in Facebook" leads: Ads Manager, or for a sandbox account the sandbox's page by a link signed for
   * `holder`; null where a sandbox account has no holder to sign for.
   */
  adsManagerUrl(facebookAccountId: string, isSandbox: boolean, holder: AccountEditor | null): string | null;
  /** The Marketing API version the client speaks, and the day Meta ends it (null: not announced). */
  apiVersion?: { version: string; endsAt: string | null };
}

/** The member an answer is for, when they may edit the workspace's accounts (editor or higher, a person). */
export interface AccountEditor {
  workspaceId: string;
  userId: string;
}

/**
 * The only shape an ad account leaves the server in: never its token. The sandbox's Ads Manager page lets its holder
 * pause and change budgets, so its signed link goes to `editor` alone (null for anyone else); a live account's Ads
 * Manager address carries no grant (Facebook asks for its own session and roles) and is everyone's.
 */
export function presentAdAccount(
  row: AdAccountRow,
  options: PresenterOptions,
  editor: AccountEditor | null,
  now: Date,
): AdAccount {
  return {
    id: row.id,
    facebook_account_id: row.facebookAccountId,
    facebook_account_name: row.facebookAccountName,
    account_status: row.metaAccountStatus === 1 ? 'active' : 'inactive',
    meta_account_status: row.metaAccountStatus,
    status_reason: row.needsReauth ? 'Facebook access expired: reconnect this account' : accountStatusReason(row),
    currency: row.currency,
    timezone: row.timezone,
    last_sync: row.lastSync?.toISOString() ?? null,
    sync_status: row.syncStatus,
    last_sync_error: row.lastSyncError,
    needs_reauth: row.needsReauth,
    is_sandbox: row.isSandbox,
    missing_scopes: row.missingScopes,
    read_only: row.missingScopes.includes(META_WRITE_SCOPE),
    auto_sync: row.autoSync,
    anomaly_sensitivity: row.anomalySensitivity,
    anomaly_muted_until: row.anomalyMutedUntil?.toISOString() ?? null,
    token_expires_at: row.tokenExpiresAt?.toISOString() ?? null,
    token_kind: row.tokenKind,
    api_version: options.apiVersion?.version ?? null,
    api_version_ends_at: options.apiVersion?.endsAt ?? null,
    backfill_days: row.backfillDays,
    history: accountHistory(row.historyFrom, localDate(row.timezone, now.getTime()), row.backfillDays),
    ads_manager_url: options.adsManagerUrl(row.facebookAccountId, row.isSandbox, editor),
    created_at: row.createdAt.toISOString(),
  };
}
