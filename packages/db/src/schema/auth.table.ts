import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantPolicies } from './roles.ts';
import { ownerColumn } from './users.table.ts';

/** Opaque refresh tokens, stored as SHA-256 hashes; a family is one login's chain of rotations. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerColumn(),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Where the token was issued (My account's sessions): the browser's user agent and the address, as sent. */
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_unique').on(t.tokenHash),
    index('refresh_tokens_user_idx').on(t.userId),
    index('refresh_tokens_family_idx').on(t.familyId),
    ...tenantPolicies('refresh_tokens', t.userId),
  ],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerColumn(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('password_resets_hash_unique').on(t.tokenHash),
    index('password_resets_user_idx').on(t.userId),
    ...tenantPolicies('password_resets', t.userId),
  ],
);

/**
 * One-time sign-in codes (ADR 0087): six digits e-mailed when the account's sign-in budget is spent, kept as an HMAC
 * of the user and the code, single-use, ten minutes.
 */
export const loginCodes = pgTable(
  'login_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerColumn(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_codes_user_idx').on(t.userId), ...tenantPolicies('login_codes', t.userId)],
);

/**
 * Confirmation links of an address (ADR 0054): single-use, stored as SHA-256 hashes, bound to the address they were
 * sent to, which must still be the account's address when the link is used.
 */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerColumn(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_verifications_hash_unique').on(t.tokenHash),
    index('email_verifications_user_idx').on(t.userId),
    ...tenantPolicies('email_verifications', t.userId),
  ],
);

/**
 * Mail that the embedded default "sends": kept here and visible to the admin, instead of an SMTP server. Bodies hold
 * live links, so they are sealed (AES-256-GCM, the server's SecretBox) and deleted when what they carry expires.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    sealedBody: text('sealed_body').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_created_at_idx').on(t.createdAt)],
);

export type MailOutboxRow = typeof mailOutbox.$inferSelect;

/**
 * What an outbox mail carried attached (a scheduled report's PDF): described in clear for the admin's list, the
 * bytes sealed like the body (base64, then the SecretBox). Deleted with their mail.
 */
export const mailOutboxAttachments = pgTable(
  'mail_outbox_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    mailId: uuid('mail_id')
      .notNull()
      .references(() => mailOutbox.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sealedContent: text('sealed_content').notNull(),
  },
  (t) => [uniqueIndex('mail_outbox_attachments_mail_position_unique').on(t.mailId, t.position)],
);

export type MailOutboxAttachmentRow = typeof mailOutboxAttachments.$inferSelect;
