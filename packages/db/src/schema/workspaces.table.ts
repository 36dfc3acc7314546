import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  pgPolicy,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { appRole, currentUserId, systemPolicy, workspacePolicies } from './roles.ts';
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
    /**
     * Whose plan covers the workspace (ADR 0110): the owner who pays, whose personal workspace holds the plan and
     * its pooled AI count. Set when the workspace is made, moved by a handover; null (the workspace's own plan row
     * alone) only when that person is gone.
     */
    payerId: uuid('payer_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('workspaces_payer_idx').on(t.payerId),
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

/** The tenant column of every workspace-owned table: deleting a workspace deletes what it owns. */
export const workspaceColumn = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

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

/**
 * A pending invitation into a workspace (ADR 0070): bound to the invited address (lower-cased), its token stored as
 * SHA-256 only, valid until `expires_at`; accepting, revoking and expiring end it. Read and written by the
 * workspace's members through the workspace's policies; accepting goes through the system path (the invited person
 * is not a member yet).
 */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    email: text('email').notNull(),
    role: text('role', { enum: WORKSPACE_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('workspace_invitations_token_unique').on(t.tokenHash),
    index('workspace_invitations_workspace_idx').on(t.workspaceId, t.createdAt),
    check('workspace_invitations_role_check', sql`${t.role} in ('owner', 'admin', 'editor', 'viewer')`),
    ...workspacePolicies('workspace_invitations', t.workspaceId),
  ],
);

/**
 * A workspace offered by its owner to another member (issue 31): it moves under the receiver's plan when they
 * accept, if it fits. One open offer per workspace (a new one replaces it); only the system path reads and writes.
 */
export const workspaceTransfers = pgTable(
  'workspace_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    fromUserId: uuid('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    toUserId: uuid('to_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('workspace_transfers_workspace_idx').on(t.workspaceId),
    index('workspace_transfers_to_idx').on(t.toUserId),
    systemPolicy('workspace_transfers'),
  ],
);

export type WorkspaceTransferRow = typeof workspaceTransfers.$inferSelect;
export type WorkspaceInvitationRow = typeof workspaceInvitations.$inferSelect;
export type WorkspaceRow = typeof workspaces.$inferSelect;
export type WorkspaceMemberRow = typeof workspaceMembers.$inferSelect;
