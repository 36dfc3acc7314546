/** What a Graph call was for; the benchmark reads calls per kind and per ad account. */
export type CallKind =
  | 'dialog'
  | 'oauth_token'
  | 'debug_token'
  | 'me'
  | 'ad_accounts'
  | 'account'
  | 'campaigns'
  | 'adsets'
  | 'ads'
  | 'activities'
  | 'object'
  | 'ids'
  | 'insights'
  | 'insights_async'
  | 'report_run'
  | 'update'
  | 'budget_schedules'
  | 'batch'
  | 'unknown';

export interface CallStatsSnapshot {
  /** HTTP requests received (a batch counts once here). */
  total: number;
  /** Requests inside batches, each counted by kind and account like a request of its own. */
  batchItems: number;
  byKind: Partial<Record<CallKind, number>>;
  /** Keyed by numeric ad account id. */
  byAccount: Record<string, number>;
}

export class CallStats {
  private data: CallStatsSnapshot = CallStats.empty();

  private static empty(): CallStatsSnapshot {
    return { total: 0, batchItems: 0, byKind: {}, byAccount: {} };
  }

  record(kind: CallKind, accountId: string | undefined, inBatch: boolean): void {
    if (inBatch) this.data.batchItems++;
    else this.data.total++;
    this.data.byKind[kind] = (this.data.byKind[kind] ?? 0) + 1;
    if (accountId) this.data.byAccount[accountId] = (this.data.byAccount[accountId] ?? 0) + 1;
  }

  get total(): number {
    return this.data.total;
  }

  snapshot(): CallStatsSnapshot {
    return structuredClone(this.data);
  }

  reset(): void {
    this.data = CallStats.empty();
  }
}
