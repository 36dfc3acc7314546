import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantPolicies, workspacePolicies } from './roles.ts';
import { ownerColumn } from './users.table.ts';
import { workspaceColumn } from './workspaces.table.ts';

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

/**
 * The AI studio's conversations (issue 29): one member's, in one workspace, listed by the member only (a colleague
 * sees none of them, and the workspace's policies keep other workspaces out). `title` is the first question cut
 * short. Deleting a conversation deletes its messages.
 */
export const aiConversations = pgTable(
  'ai_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    userId: ownerColumn(),
    title: text('title').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ai_conversations_member_idx').on(t.workspaceId, t.userId, t.updatedAt),
    ...workspacePolicies('ai_conversations', t.workspaceId),
  ],
);

/**
 * One turn of a conversation: the member's question or the assistant's answer, with the figures it cited (entity,
 * name, figure) and the proposals it left. `language` is the answer's (en or th).
 */
export const aiMessages = pgTable(
  'ai_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * The message's place in its conversation (1, 2, …), whatever the clock said: a question and its answer share
     * their moment. Given under the conversation's row lock, so two follow-ups at once take their turns in order.
     */
    seq: integer('seq').notNull(),
    workspaceId: workspaceColumn(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => aiConversations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    citations: jsonb('citations').$type<unknown[]>().notNull().default([]),
    proposals: jsonb('proposals').$type<unknown[]>().notNull().default([]),
    /** An answer's calls to the configured model and the tokens they used (0 for the built-in analyst). */
    modelCalls: integer('model_calls').notNull().default(0),
    tokens: integer('tokens').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ai_messages_conversation_seq_unique').on(t.conversationId, t.seq),
    index('ai_messages_workspace_idx').on(t.workspaceId),
    ...workspacePolicies('ai_messages', t.workspaceId),
  ],
);

export type AiConversationRow = typeof aiConversations.$inferSelect;
export type AiMessageRow = typeof aiMessages.$inferSelect;
