import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { systemPolicy } from './roles.ts';
import { workspaceColumn } from './workspaces.table.ts';

/**
 * What an address outside a workspace said about the workspace's mail (ADR 0092): `pending` once the first mail (the
 * one asking to confirm) went out, `confirmed` after the address confirmed (or accepted an invitation),
 * `unsubscribed` after it asked for no more. No row: the workspace never mailed the address. Only the system path
 * reaches the table (the application role has no grant): it is about people who are nobody's users.
 */
export const mailRecipients = pgTable(
  'mail_recipients',
  {
    workspaceId: workspaceColumn(),
    email: text('email').notNull(),
    state: text('state', { enum: ['pending', 'confirmed', 'unsubscribed'] }).notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.email] }),
    index('mail_recipients_email_idx').on(t.email),
    check('mail_recipients_email_lower', sql`${t.email} = lower(${t.email})`),
    systemPolicy('mail_recipients'),
  ],
);

export type MailRecipientRow = typeof mailRecipients.$inferSelect;
