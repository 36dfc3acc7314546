import { activityLogs, withTenant, type Database } from '@adpilot/db';

export interface NewActivity {
  level: 'info' | 'success' | 'warning' | 'error';
  category: string;
  description: string;
  adAccountId?: string | null;
  metadata?: Record<string, unknown>;
}

export class ActivityRepository {
  constructor(private readonly db: Database) {}

  async insert(userId: string, entry: NewActivity): Promise<void> {
    await withTenant(this.db, userId, (tx) =>
      tx.insert(activityLogs).values({ userId, ...entry, metadata: entry.metadata ?? {} }),
    );
  }
}
