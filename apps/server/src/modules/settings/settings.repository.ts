import { instanceSettings, takeExcluded, type SystemTx } from '@adpilot/db';
import { inArray, sql } from 'drizzle-orm';

/** The channel every process of the instance listens on; a save notifies it when its transaction commits. */
export const SETTINGS_CHANNEL = 'adpilot_settings';

export interface SettingWrite {
  key: string;
  value: string;
  sealed: boolean;
}

export class SettingsRepository {
  /** The database connection test: the server answers a query. */
  async selectOne(tx: SystemTx): Promise<void> {
    await tx.db.execute(sql`select 1`);
  }

  all(tx: SystemTx) {
    return tx.db.select().from(instanceSettings);
  }

  /** Writes and removals of one save, and the notification every process acts on once they are committed. */
  async save(tx: SystemTx, changes: { write: SettingWrite[]; remove: string[]; by: string }): Promise<void> {
    if (changes.write.length > 0) {
      await tx.db
        .insert(instanceSettings)
        .values(changes.write.map((row) => ({ ...row, updatedBy: changes.by, updatedAt: sql`now()` })))
        .onConflictDoUpdate({
          target: instanceSettings.key,
          set: takeExcluded(instanceSettings, ['value', 'sealed', 'updatedBy', 'updatedAt']),
        });
    }
    if (changes.remove.length > 0)
      await tx.db.delete(instanceSettings).where(inArray(instanceSettings.key, changes.remove));
    await tx.db.execute(sql`select pg_notify(${SETTINGS_CHANNEL}, '')`);
  }
}
