import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenantPolicies } from './roles.ts';
import { ownerColumn } from './users.table.ts';

/** The activity log: every sync, decision and action the product takes for a user. */
export const activityLogs = pgTable(
  'activity_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerColumn(),
    level: text('level', { enum: ['info', 'success', 'warning', 'error'] }).notNull(),
    category: text('category').notNull(),
    description: text('description').notNull(),
    adAccountId: uuid('ad_account_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activity_logs_user_created_idx').on(t.userId, t.createdAt),
    ...tenantPolicies('activity_logs', t.userId),
  ],
);

export type ActivityLogRow = typeof activityLogs.$inferSelect;
