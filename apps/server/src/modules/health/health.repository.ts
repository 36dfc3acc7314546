import { pendingMigrations, type DatabaseHandle, type TenantTx } from '@adpilot/db';
import { sql } from 'drizzle-orm';

/** A query on a tenant table through the tenant path: proves the role switch, the grants and the policies work. */
export async function probeTenantTable(tx: TenantTx): Promise<void> {
  await tx.db.execute(sql`select 1 from ad_accounts where workspace_id = ${tx.workspaceId} limit 1`);
}

/** How many migrations bundled with this build the database has not applied (read as the login user). */
export function countPendingMigrations(database: DatabaseHandle): Promise<number> {
  return pendingMigrations(database).then((tags) => tags.length);
}
