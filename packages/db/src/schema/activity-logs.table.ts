import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspacePolicies } from './roles.ts';
import { users } from './users.table.ts';
import { workspaceColumn } from './workspaces.table.ts';

/**
 * The activity log: every sync, decision and action the product takes for a user. `metadata.code` and
 * `metadata.params` hold the message (rendered in the reader's language); `description` is its plain English.
 *
 * `seq` is the entry's place in its workspace's log, given from `activity_log_counters` by a deferred trigger as the
 * inserting transaction commits (ADR 0035, ADR 0200): the counter row is locked only for the end of the commit, so a
 * workspace's entries become visible in `seq` order and a reader that has seen `seq` k has seen every entry below
 * it. The live stream's event ids and the list's stable pages rest on that. Until its commit an entry reads 0 (the
 * default) in its own transaction; no other transaction sees it before it has its number.
 */
export const activityLogs = pgTable(
  'activity_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    /** The person whose change this entry records ("by Name"); null for the product's own entries (ADR 0070). */
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    seq: bigint('seq', { mode: 'number' }).notNull().default(0),
    level: text('level', { enum: ['info', 'success', 'warning', 'error'] }).notNull(),
    category: text('category').notNull(),
    description: text('description').notNull(),
    adAccountId: uuid('ad_account_id'),
    ruleId: uuid('rule_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The list, the stream's catch-up and the export walk one user's entries by seq; each filter has its own
    // (user, filter, seq) index so a filtered page is an index range, not a scan of the user's log.
    index('activity_logs_workspace_seq_idx').on(t.workspaceId, t.seq),
    index('activity_logs_workspace_level_seq_idx').on(t.workspaceId, t.level, t.seq),
    index('activity_logs_workspace_category_seq_idx').on(t.workspaceId, t.category, t.seq),
    index('activity_logs_workspace_rule_seq_idx')
      .on(t.workspaceId, t.ruleId, t.seq)
      .where(sql`${t.ruleId} is not null`),
    index('activity_logs_workspace_account_seq_idx')
      .on(t.workspaceId, t.adAccountId, t.seq)
      .where(sql`${t.adAccountId} is not null`),
    index('activity_logs_workspace_created_idx').on(t.workspaceId, t.createdAt),
    // Retention deletes by age across users.
    index('activity_logs_created_idx').on(t.createdAt),
    ...workspacePolicies('activity_logs', t.workspaceId),
  ],
);

export type ActivityLogRow = typeof activityLogs.$inferSelect;

/** The last `seq` handed out per workspace; never decreases, so a deleted entry's number is never reused. */
export const activityLogCounters = pgTable(
  'activity_log_counters',
  {
    workspaceId: workspaceColumn().primaryKey(),
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
  },
  (t) => [...workspacePolicies('activity_log_counters', t.workspaceId)],
);
