import { sql } from 'drizzle-orm';
import { pgPolicy, pgRole, type PgColumn } from 'drizzle-orm/pg-core';

/**
 * The role every connection queries as (the application role). It owns nothing, and the tenant tables force
 * row-level security, so with no `app.user_id` set it sees no tenant rows at all. Created by the first
 * (hand-written) migration because roles are cluster-wide.
 */
export const appRole = pgRole('adpilot_app').existing();

/**
 * The role of the one named cross-tenant path (`database.system(…)`): schedulers, maintenance, the operator's
 * endpoints and sign-in lookups before a user is known. Its policies let it through every row.
 */
export const systemRole = pgRole('adpilot_system').existing();

/** The setting a tenant transaction carries: `set_config('app.user_id', …, true)`. */
export const currentUserId = sql`nullif(current_setting('app.user_id', true), '')::uuid`;

/** The system path's policy on a table whose rows belong to users: every row. */
export function systemPolicy(table: string) {
  return pgPolicy(`${table}_system_access`, {
    as: 'permissive',
    for: 'all',
    to: systemRole,
    using: sql`true`,
    withCheck: sql`true`,
  });
}

/** The two policies of every tenant table: its own rows for the user of the transaction, all rows for the system. */
export function tenantPolicies(table: string, userIdColumn: PgColumn) {
  return [
    pgPolicy(`${table}_tenant_isolation`, {
      as: 'permissive',
      for: 'all',
      to: appRole,
      using: sql`${userIdColumn} = ${currentUserId}`,
      withCheck: sql`${userIdColumn} = ${currentUserId}`,
    }),
    systemPolicy(table),
  ];
}
