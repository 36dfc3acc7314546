import { logListSchema, successEnvelope } from '@adpilot/contracts';
import { activityLogs } from '@adpilot/db';
import type { TestApp } from './test-app.ts';

export const activityLogListResponse = successEnvelope(logListSchema);

export interface SeedEntry {
  level?: 'info' | 'success' | 'warning' | 'error';
  category?: string;
  description?: string;
  ruleId?: string;
  adAccountId?: string;
  createdAt?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Writes entries behind the API's back (the database still numbers them): `count` plain ones, then `entries`,
 * each in its own statement so they commit in order.
 */
export async function seedLogs(
  t: TestApp,
  workspaceId: string,
  count: number,
  entries: SeedEntry[] = [],
): Promise<void> {
  const all: SeedEntry[] = [...Array.from({ length: count }, (_, i) => ({ description: `entry ${i}` })), ...entries];
  for (const entry of all) {
    await t.inspect((db) =>
      db.insert(activityLogs).values({
        workspaceId,
        level: entry.level ?? 'info',
        category: entry.category ?? 'system',
        description: entry.description ?? 'seeded',
        ruleId: entry.ruleId ?? null,
        adAccountId: entry.adAccountId ?? null,
        metadata: { ...entry.metadata, ...(entry.ruleId ? { ruleId: entry.ruleId } : {}) },
        ...(entry.createdAt ? { createdAt: new Date(entry.createdAt) } : {}),
      }),
    );
  }
}
