import { workspaceJob } from '../../lib/scope.ts';
import { localDate } from '@adpilot/contracts';
import type { AdAccountRow, Transactions, TenantScope } from '@adpilot/db';
import type { GraphAd, MetaClient } from '@adpilot/meta';
import type { SecretBox } from '../../lib/crypto.ts';
import type { AdAccountsRepository } from './ad-accounts.repository.ts';
import { insightLevels } from './ad-account-sync.service.ts';
import { nextChunk } from './history-backfill.ts';

export interface AdAccountBackfillDeps {
  transactions: Transactions;
  repository: AdAccountsRepository;
  metaClient: () => MetaClient;
  secretBox: SecretBox;
  now: () => Date;
}

export interface BackfillResult {
  status: 'complete' | 'skipped';
  /** Chunks this run wrote (one another run wrote first is not counted). */
  chunks: number;
  /** The earliest day the mirror holds now (null: the account has no history yet, or is gone). */
  historyFrom: string | null;
}

/**
 * An account's older daily insights, read back from the mirror's first day towards the history setting a month at
 * a time (ADR 0103). Each chunk is read from Meta outside any transaction, then its rows and the new first day land
 * in one unit of work: a run stopped anywhere (a crash, Meta's rate limit, a retry) resumes from the day it reached,
 * and a chunk written twice moves the history once. The job that runs it is one per account (`stately`).
 */
export class AdAccountBackfillService {
  constructor(private readonly deps: AdAccountBackfillDeps) {}

  async backfill(scope: TenantScope, adAccountId: string): Promise<BackfillResult> {
    const { repository, transactions } = this.deps;
    let chunks = 0;
    let ads: GraphAd[] | null = null;
    for (;;) {
      const account = await transactions.tenant(scope, (tx) => repository.find(tx, adAccountId));
      if (!account || account.needsReauth) {
        return { status: 'skipped', chunks, historyFrom: account?.historyFrom ?? null };
      }
      const today = localDate(account.timezone, this.deps.now().getTime());
      const chunk = nextChunk(account.historyFrom, today, account.backfillDays);
      if (!chunk || account.historyFrom === null) {
        return { status: account.historyFrom ? 'complete' : 'skipped', chunks, historyFrom: account.historyFrom };
      }
      ads ??= await this.listAds(account);
      const levels = await this.read(account, chunk, ads);
      const expected = account.historyFrom;
      // Another run that moved the history first wrote these days: this one reads the account again and goes on.
      const moved = await transactions.tenant(workspaceJob(account.workspaceId), async (tx) => {
        if (!(await repository.moveHistoryFrom(tx, account.id, expected, chunk.since))) return false;
        await repository.upsertInsights(tx, account.id, levels);
        return true;
      });
      if (moved) chunks += 1;
    }
  }

  private listAds(account: AdAccountRow): Promise<GraphAd[]> {
    const token = this.deps.secretBox.decrypt(account.accessTokenEnc);
    return this.deps.metaClient().listAds(token, `act_${account.facebookAccountId}`);
  }

  private async read(account: AdAccountRow, range: { since: string; until: string }, ads: readonly GraphAd[]) {
    const token = this.deps.secretBox.decrypt(account.accessTokenEnc);
    const rows = await this.deps.metaClient().getInsights(token, `act_${account.facebookAccountId}`, {
      level: 'ad',
      timeRange: range,
      timeIncrement: 1,
    });
    return insightLevels(rows, ads);
  }
}
