import {
  adAccounts,
  mailOutbox,
  oauthStates,
  passwordResets,
  rateLimitBuckets,
  refreshTokens,
  type SystemTx,
} from '@adpilot/db';
import { and, inArray, lt, or, isNotNull } from 'drizzle-orm';

/** The code stored in `last_sync_error` when a sync stopped reporting; the web renders it in the user's language. */
export const SYNC_STALLED = 'sync_stalled';

export interface PurgeCounts {
  oauthStates: number;
  passwordResets: number;
  refreshTokens: number;
  rateLimitBuckets: number;
  outboxMail: number;
}

/** Deletes what can no longer be used: expired or spent single-use tokens, closed limit windows, expired mail. */
export class MaintenanceRepository {
  /** Every tenant's spent tokens: a cross-tenant job, on the system path. */
  async purgeExpired(tx: SystemTx, now: Date, keepRevokedUntil: Date): Promise<PurgeCounts> {
    const count = (rows: unknown[]) => rows.length;
    const states = await tx.db
      .delete(oauthStates)
      .where(or(lt(oauthStates.expiresAt, now), isNotNull(oauthStates.usedAt)))
      .returning({ id: oauthStates.id });
    const resets = await tx.db
      .delete(passwordResets)
      .where(or(lt(passwordResets.expiresAt, now), isNotNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    // Rotated and revoked tokens are kept a while: a replay of one must still be recognised as reuse.
    const tokens = await tx.db
      .delete(refreshTokens)
      .where(or(lt(refreshTokens.expiresAt, now), lt(refreshTokens.revokedAt, keepRevokedUntil)))
      .returning({ id: refreshTokens.id });
    const buckets = await tx.db
      .delete(rateLimitBuckets)
      .where(lt(rateLimitBuckets.resetAt, now))
      .returning({ key: rateLimitBuckets.key });
    // An outbox mail carries a reset link: once the link is dead the mail is only a liability.
    const mail = await tx.db.delete(mailOutbox).where(lt(mailOutbox.expiresAt, now)).returning({ id: mailOutbox.id });
    return {
      oauthStates: count(states),
      passwordResets: count(resets),
      refreshTokens: count(tokens),
      rateLimitBuckets: count(buckets),
      outboxMail: count(mail),
    };
  }

  /**
   * Every tenant's syncs that stopped reporting: a `queued` or `syncing` state not touched since `before` belongs to
   * a job that expired or a worker that died. It becomes an error the user can read, so "Sync now" works again.
   */
  async recoverStaleSyncs(tx: SystemTx, before: Date, now: Date): Promise<number> {
    const rows = await tx.db
      .update(adAccounts)
      .set({ syncStatus: 'error', lastSyncError: SYNC_STALLED, updatedAt: now })
      .where(and(inArray(adAccounts.syncStatus, ['queued', 'syncing']), lt(adAccounts.updatedAt, before)))
      .returning({ id: adAccounts.id });
    return rows.length;
  }
}
