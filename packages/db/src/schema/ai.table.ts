import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenantPolicies } from './roles.ts';
import { ownerColumn } from './users.table.ts';

/**
 * A user's interest in a feature that is not out yet (the AI studio's Automation tab: "Join Waitlist"). One row per
 * user and feature: joining twice records it once.
 */
export const featureWaitlist = pgTable(
  'feature_waitlist',
  {
    userId: ownerColumn(),
    feature: text('feature').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.feature] }), ...tenantPolicies('feature_waitlist', t.userId)],
);

export type FeatureWaitlistRow = typeof featureWaitlist.$inferSelect;
