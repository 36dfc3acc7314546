import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The instance's runtime settings (Settings page): one row per field the administrator saved. Secrets are sealed
 * by the server (AES-256-GCM, `v1.…`) before they reach this table; `sealed` says which rows hold one. The table
 * belongs to no user: only the system path reaches it (the application role has no grant), and the environment
 * takes precedence over every row (ADR 0044).
 */
export const instanceSettings = pgTable('instance_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  sealed: boolean('sealed').notNull().default(false),
  updatedBy: uuid('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type InstanceSettingRow = typeof instanceSettings.$inferSelect;
