import { sql } from 'drizzle-orm';
import { index, pgPolicy, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { appRole, currentUserId, systemPolicy } from './roles.ts';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    /**
     * The address a confirmation link proved the user reads, and when (ADR 0054). The account's address is verified
     * while it equals `verified_email`: an address changed later is unverified again without anyone clearing this.
     */
    verifiedEmail: text('verified_email'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    role: text('role', { enum: ['admin', 'user'] })
      .notNull()
      .default('user'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    index('users_created_at_idx').on(t.createdAt),
    pgPolicy('users_self', {
      as: 'permissive',
      for: 'all',
      to: appRole,
      using: sql`${t.id} = ${currentUserId}`,
      withCheck: sql`${t.id} = ${currentUserId}`,
    }),
    systemPolicy('users'),
  ],
);

export type UserRow = typeof users.$inferSelect;

/** The owner column of every tenant table: deleting a user deletes what it owns. */
export const ownerColumn = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
