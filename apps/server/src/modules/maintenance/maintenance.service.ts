import type { SystemTx, Transactions } from '@adpilot/db';
import type { AdAccountSyncService, AdAccountsService } from '../ad-accounts/index.ts';
import type { AuthService } from '../auth/index.ts';

/** How long revoked refresh tokens are kept so that replaying one is still detected as reuse. */
export const KEEP_REVOKED_DAYS = 7;

export interface PurgeCounts {
  oauthStates: number;
  passwordResets: number;
  loginCodes: number;
  refreshTokens: number;
  rateLimitBuckets: number;
  outboxMail: number;
}

export interface MaintenanceDeps {
  transactions: Transactions;
  /** Auth purges its spent reset links, sign-in codes, refresh tokens and closed rate-limit windows. */
  auth: Pick<AuthService, 'purgeExpired'>;
  /** The ad accounts module purges its spent OAuth states… */
  adAccounts: Pick<AdAccountsService, 'purgeSpentOAuthStates'>;
  /** …and its sync state machine recovers the syncs that stopped reporting. */
  adAccountSync: Pick<AdAccountSyncService, 'recoverStaleSyncs'>;
  /** The mail outbox drops the mail whose link expired. */
  outbox: { purgeExpired(tx: SystemTx, now: Date): Promise<number> };
}

/**
 * The hourly clean-up across modules (ADR 0066): this module owns no table; it opens one unit of work on the system
 * path and asks each owner to delete what can no longer be used and to recover what stopped, so the run commits
 * whole or not at all, as one transaction did before.
 */
export class MaintenanceService {
  constructor(private readonly deps: MaintenanceDeps) {}

  /** One run: the purge, then the recovery of syncs that stopped reporting. */
  run(now: Date): Promise<{ purged: PurgeCounts; recovered: number }> {
    return this.deps.transactions.system('maintenance purge', async (tx) => ({
      purged: await this.purgeExpiredIn(tx, now),
      recovered: await this.deps.adAccountSync.recoverStaleSyncs(tx, now),
    }));
  }

  /** Every tenant's spent tokens, closed limit windows and expired outbox mail, in the caller's unit of work. */
  async purgeExpiredIn(tx: SystemTx, now: Date): Promise<PurgeCounts> {
    const keepRevokedUntil = new Date(now.getTime() - KEEP_REVOKED_DAYS * 86_400_000);
    const oauthStates = await this.deps.adAccounts.purgeSpentOAuthStates(tx, now);
    const auth = await this.deps.auth.purgeExpired(tx, now, keepRevokedUntil);
    const outboxMail = await this.deps.outbox.purgeExpired(tx, now);
    return {
      oauthStates,
      passwordResets: auth.passwordResets,
      loginCodes: auth.loginCodes,
      refreshTokens: auth.refreshTokens,
      rateLimitBuckets: auth.rateLimitBuckets,
      outboxMail,
    };
  }
}
