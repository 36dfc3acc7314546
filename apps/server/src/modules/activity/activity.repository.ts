import { activityLogs, type TenantTx } from '@adpilot/db';

export interface NewActivity {
  level: 'info' | 'success' | 'warning' | 'error';
  category: string;
  description: string;
  adAccountId?: string | null;
  metadata?: Record<string, unknown>;
}

export class ActivityRepository {
  /** Writes in the caller's unit of work, so the entry commits (or not) with what it describes. */
  async insert(tx: TenantTx, entry: NewActivity): Promise<void> {
    await tx.db.insert(activityLogs).values({ userId: tx.userId, ...entry, metadata: entry.metadata ?? {} });
  }
}
