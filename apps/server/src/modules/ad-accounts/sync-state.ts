import type { SyncErrorCode } from '@adpilot/contracts';
import type { AdAccountRow, SystemTx, TenantTx } from '@adpilot/db';
import type { AdAccountsRepository } from './ad-accounts.repository.ts';

/** The code stored in `last_sync_error` when a sync stopped reporting; the web renders it in the user's language. */
export const SYNC_STALLED = 'sync_stalled';

/**
 * A `queued` or `syncing` state untouched this long is stale. Each attempt writes `syncing` when it starts, and
 * pg-boss expires an attempt after 15 minutes, so a live sync is never this old; the margin covers a job waiting
 * its turn (ADR 0036).
 */
export const STALE_SYNC_MINUTES = 60;

/** A refresh claimed by a rule that has not finished after this long is taken to be dead and may be claimed again. */
export const ABANDONED_CLAIM_MS = 10 * 60_000;

/**
 * An ad account's sync state, and the one place that moves it (ADR 0066). States: `idle`, `queued`, `syncing`,
 * `error`.
 * - queue: a sync is asked for (connect, "Sync now"); an account already `syncing` stays so (the request is absorbed).
 * - start: a sync attempt begins (`syncing`).
 * - claim: a rule's refresh takes a stale account for itself (`syncing`), one claimant at a time across processes;
 *   a claim older than `ABANDONED_CLAIM_MS` is free again.
 * - land: the attempt wrote the mirror (`idle`, `last_sync` now, no error).
 * - fail: `queued` when the queue retries, `error` with the code otherwise; an expired access also asks for a
 *   reconnection.
 * - recover: every `queued`/`syncing` state untouched for `STALE_SYNC_MINUTES` becomes `error` `sync_stalled`
 *   (the hourly maintenance run), so "Sync now" works again.
 * Each transition runs in the caller's unit of work.
 */
export class SyncState {
  constructor(private readonly repository: AdAccountsRepository) {}

  /** Marks the account queued; an account already syncing is left as it is (and answered unchanged). */
  queue(tx: TenantTx, row: AdAccountRow): Promise<AdAccountRow | undefined> {
    if (row.syncStatus === 'syncing') return Promise.resolve(row);
    return this.repository.update(tx, row.id, { syncStatus: 'queued' });
  }

  async start(tx: TenantTx, adAccountId: string): Promise<void> {
    await this.repository.update(tx, adAccountId, { syncStatus: 'syncing' });
  }

  /** The refresh of an account whose mirror is older than `staleBefore`, claimed at `at`; false when not ours. */
  claim(tx: TenantTx, adAccountId: string, staleBefore: Date, at: Date): Promise<boolean> {
    return this.repository.claimSync(tx, adAccountId, staleBefore, new Date(at.getTime() - ABANDONED_CLAIM_MS), at);
  }

  /** The sync landed: the account's own fields as Meta answered them, and the state back to idle. */
  async land(tx: TenantTx, adAccountId: string, fields: Partial<AdAccountRow>, at: Date): Promise<void> {
    await this.repository.update(tx, adAccountId, { ...fields, syncStatus: 'idle', lastSync: at, lastSyncError: null });
  }

  /** The attempt failed with `reason`: queued again when the queue retries it, an error otherwise. */
  async fail(tx: TenantTx, adAccountId: string, reason: SyncErrorCode, retrying: boolean): Promise<void> {
    await this.repository.update(tx, adAccountId, { syncStatus: retrying ? 'queued' : 'error', lastSyncError: reason });
  }

  /** Meta no longer accepts the token: an error until the user reconnects. */
  async accessExpired(tx: TenantTx, adAccountId: string): Promise<void> {
    await this.repository.update(tx, adAccountId, {
      syncStatus: 'error',
      needsReauth: true,
      lastSyncError: 'access_expired',
    });
  }

  /** Every tenant's syncs that stopped reporting become an error the user can read (system path). */
  recover(tx: SystemTx, now: Date): Promise<number> {
    return this.repository.failStaleSyncs(tx, new Date(now.getTime() - STALE_SYNC_MINUTES * 60_000), SYNC_STALLED, now);
  }
}
