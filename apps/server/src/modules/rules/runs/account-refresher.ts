import { workspaceJob } from '../../../lib/scope.ts';
import type { AdAccountRow } from '@adpilot/db';
import type { AdAccountSyncService, AdMirrorService } from '../../ad-accounts/index.ts';
import type { Transactions } from '@adpilot/db';

export interface RefresherDeps {
  transactions: Transactions;
  inputs: Pick<AdMirrorService, 'account'>;
  /** The ad-accounts module's sync: it claims the refresh (the account's sync state) and records its result. */
  sync: Pick<AdAccountSyncService, 'claimRefresh' | 'sync'>;
  now: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** How long a rule waits for someone else's refresh before judging on the mirror it has. */
  maxWaitMs?: number;
}

const POLL_MS = 200;

/**
 * Brings an account's mirror up to date before rules judge it, once per account however many rules ask: in this
 * process, callers share one promise; across processes, the account's sync status is claimed by one and the
 * others wait for its `lastSync` to move.
 */
export class AccountRefresher {
  private readonly inflight = new Map<string, Promise<AdAccountRow>>();
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly deps: RefresherDeps) {
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The account, refreshed when its mirror is older than `maxAgeMs`. */
  ensureFresh(account: AdAccountRow, maxAgeMs: number): Promise<AdAccountRow> {
    if (this.isFresh(account, maxAgeMs)) return Promise.resolve(account);
    const running = this.inflight.get(account.id);
    if (running) return running;
    const refresh = this.refresh(account, maxAgeMs).finally(() => this.inflight.delete(account.id));
    this.inflight.set(account.id, refresh);
    return refresh;
  }

  private isFresh(account: AdAccountRow, maxAgeMs: number): boolean {
    return account.lastSync !== null && this.deps.now().getTime() - account.lastSync.getTime() < maxAgeMs;
  }

  private async refresh(account: AdAccountRow, maxAgeMs: number): Promise<AdAccountRow> {
    const { transactions, inputs, sync, now } = this.deps;
    const at = now();
    const claimed = await sync.claimRefresh(
      workspaceJob(account.workspaceId),
      account.id,
      new Date(at.getTime() - maxAgeMs),
      at,
    );
    if (claimed) await sync.sync(workspaceJob(account.workspaceId), account.id, { final: true });
    const deadline = Date.now() + (this.deps.maxWaitMs ?? 120_000);
    for (;;) {
      const current = await transactions.tenant(workspaceJob(account.workspaceId), (tx) =>
        inputs.account(tx, account.id),
      );
      if (!current) return account;
      if (claimed || this.isFresh(current, maxAgeMs) || current.syncStatus !== 'syncing' || Date.now() > deadline)
        return current;
      await this.sleep(POLL_MS);
    }
  }
}
