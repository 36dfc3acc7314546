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

/** The workspace a tenant unit of work acts in: `set_config('app.workspace_id', …, true)` (ADR 0070). */
export const currentWorkspaceId = sql`nullif(current_setting('app.workspace_id', true), '')::uuid`;

/**
 * A workspace-owned row is visible when it belongs to the unit of work's workspace and that unit's user is a member
 * of it; a unit of work with no user is a job of the workspace (the scheduler's runs, syncs), let through by the
 * workspace alone. The membership test does not depend on the row, so Postgres runs it once per statement (an init
 * plan), through `workspace_members`' own policy (a user reads their own memberships). ADR 0070.
 */
export const workspaceAccess = (column: PgColumn) =>
  sql`${column} = ${currentWorkspaceId} and (${currentUserId} is null or exists (select 1 from "workspace_members" m where m."workspace_id" = ${currentWorkspaceId} and m."user_id" = ${currentUserId}))`;

/** The two policies of every workspace table: its workspace's rows for a member (or its jobs), all for the system. */
export function workspacePolicies(table: string, workspaceIdColumn: PgColumn) {
  return [
    pgPolicy(`${table}_workspace_isolation`, {
      as: 'permissive',
      for: 'all',
      to: appRole,
      using: workspaceAccess(workspaceIdColumn),
      withCheck: workspaceAccess(workspaceIdColumn),
    }),
    systemPolicy(table),
  ];
}

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
