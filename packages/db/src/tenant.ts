import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/** A transaction handle; repositories accept either it or the database. */
export type Executor = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

/**
 * Runs `work` in a transaction as the application role with `app.user_id` set, so row-level security
 * only lets this user's rows through. Repositories still filter by user explicitly: two locks, not one.
 */
export function withTenant<T>(db: Database, userId: string, work: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.user_id', ${userId}, true)`);
    await tx.execute(sql`set local role adpilot_app`);
    return work(tx);
  });
}
