import { sql } from 'drizzle-orm';
import { pgPolicy, pgRole, type PgColumn } from 'drizzle-orm/pg-core';

/**
 * The role the application queries as on behalf of a user. It owns nothing, so row-level security applies to it;
 * it is created by the first (hand-written) migration because roles are cluster-wide.
 */
export const appRole = pgRole('adpilot_app').existing();

/** The setting a tenant transaction carries: `SET LOCAL app.user_id`. */
export const currentUserId = sql`nullif(current_setting('app.user_id', true), '')::uuid`;

/** One policy per tenant table: a row is visible and writable only for its own user. */
export function tenantPolicy(table: string, userIdColumn: PgColumn) {
  return pgPolicy(`${table}_tenant_isolation`, {
    as: 'permissive',
    for: 'all',
    to: appRole,
    using: sql`${userIdColumn} = ${currentUserId}`,
    withCheck: sql`${userIdColumn} = ${currentUserId}`,
  });
}
