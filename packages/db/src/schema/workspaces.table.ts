import { sql } from 'drizzle-orm';
import { boolean, check, index, pgPolicy, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { appRole, currentUserId, systemPolicy } from './roles.ts';
import { ownerColumn, users } from './users.table.ts';

/** A member's role, lowest last (the contracts' `WORKSPACE_ROLES` is the same list). */
const WORKSPACE_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;

/**
 * A workspace: the tenant every table moves to (ADR 0070). Each user has one personal workspace, made with the user;
 * `personal_owner_id` names that user, so a second personal workspace for the same user cannot exist. A user sees
 * the workspaces they are a member of; only the system path writes them in this first step.
 */
export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The owner's name for a personal workspace: the web words it ("Alice's workspace"). */
    name: text('name').notNull(),
    personal: boolean('personal').notNull().default(false),
    personalOwnerId: uuid('personal_owner_id')
      .unique('workspaces_personal_owner_unique')
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('workspaces_personal_owner_check', sql`${t.personal} = (${t.personalOwnerId} is not null)`),
    pgPolicy('workspaces_member_read', {
      as: 'permissive',
      for: 'select',
      to: appRole,
      using: sql`exists (select 1 from "workspace_members" m where m."workspace_id" = ${t.id} and m."user_id" = ${currentUserId})`,
    }),
    systemPolicy('workspaces'),
  ],
);

/** Who belongs to a workspace, and as what. A user reads their own memberships; the system path writes them. */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: ownerColumn(),
    role: text('role', { enum: WORKSPACE_ROLES }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId),
    check('workspace_members_role_check', sql`${t.role} in ('owner', 'admin', 'editor', 'viewer')`),
    pgPolicy('workspace_members_own_read', {
      as: 'permissive',
      for: 'select',
      to: appRole,
      using: sql`${t.userId} = ${currentUserId}`,
    }),
    systemPolicy('workspace_members'),
  ],
);

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type WorkspaceMemberRow = typeof workspaceMembers.$inferSelect;
