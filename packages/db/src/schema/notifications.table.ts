import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenantPolicies } from './roles.ts';
import { ownerColumn } from './users.table.ts';

/**
 * One row per user who changed a notification setting (none: everything off). Each channel keeps the moment it was
 * turned on, so switching it on never sends what happened before (ADR 0038). The webhook secret and the LINE
 * channel access token are sealed.
 */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: ownerColumn().primaryKey(),
    emailErrorsSince: timestamp('email_errors_since', { withTimezone: true }),
    emailDigestSince: timestamp('email_digest_since', { withTimezone: true }),
    digestHour: integer('digest_hour').notNull().default(8),
    language: text('language', { enum: ['en', 'th'] })
      .notNull()
      .default('en'),
    timeZone: text('time_zone').notNull().default('UTC'),
    webhookUrl: text('webhook_url'),
    webhookSecretEnc: text('webhook_secret_enc'),
    webhookSecretHint: text('webhook_secret_hint'),
    webhookSince: timestamp('webhook_since', { withTimezone: true }),
    /** The LINE channel (ADR 0075): the sealed channel access token, its hint, the user, group or chat id. */
    lineTokenEnc: text('line_token_enc'),
    lineTokenHint: text('line_token_hint'),
    lineTarget: text('line_target'),
    lineSince: timestamp('line_since', { withTimezone: true }),
    /** Entries up to this moment were looked at by the notifier (a rescan overlaps it; job ids drop repeats). */
    scannedUntil: timestamp('scanned_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [...tenantPolicies('notification_settings', t.userId)],
);

export type NotificationSettingsRow = typeof notificationSettings.$inferSelect;
