import { AI_CONVERSATION_LIMITS, type Citation } from '@adpilot/contracts';
import { aiConversations, aiMessages, type AiConversationRow, type AiMessageRow, type TenantTx } from '@adpilot/db';
import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import { personOf } from '../../../lib/scope.ts';

/**
 * The member's own conversations in the workspace: every read and write filters by the workspace and the member as
 * well as row-level security does (the workspace's policies let a colleague's rows through, our filter does not).
 */
export class ConversationsRepository {
  private mine(tx: TenantTx) {
    return and(eq(aiConversations.workspaceId, tx.workspaceId), eq(aiConversations.userId, personOf(tx)));
  }

  list(tx: TenantTx): Promise<AiConversationRow[]> {
    return tx.db
      .select()
      .from(aiConversations)
      .where(this.mine(tx))
      .orderBy(desc(aiConversations.updatedAt), desc(aiConversations.id))
      .limit(AI_CONVERSATION_LIMITS.listed);
  }

  /** The conversation, locked for this turn (two follow-ups at once take their turns one after the other). */
  async lock(tx: TenantTx, id: string): Promise<AiConversationRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(aiConversations)
      .where(and(this.mine(tx), eq(aiConversations.id, id)))
      .for('update');
    return row;
  }

  async one(tx: TenantTx, id: string): Promise<AiConversationRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(aiConversations)
      .where(and(this.mine(tx), eq(aiConversations.id, id)));
    return row;
  }

  async create(tx: TenantTx, title: string): Promise<AiConversationRow> {
    const [row] = await tx.db
      .insert(aiConversations)
      .values({ workspaceId: tx.workspaceId, userId: personOf(tx), title })
      .returning();
    return row!;
  }

  /** The last turns, oldest first: what a follow-up is answered with. */
  async recent(
    tx: TenantTx,
    conversationId: string,
    turns = AI_CONVERSATION_LIMITS.turnsKept,
  ): Promise<AiMessageRow[]> {
    const rows = await tx.db
      .select()
      .from(aiMessages)
      .where(and(eq(aiMessages.workspaceId, tx.workspaceId), eq(aiMessages.conversationId, conversationId)))
      .orderBy(desc(aiMessages.seq))
      .limit(turns);
    return rows.reverse();
  }

  messages(tx: TenantTx, conversationId: string): Promise<AiMessageRow[]> {
    return tx.db
      .select()
      .from(aiMessages)
      .where(and(eq(aiMessages.workspaceId, tx.workspaceId), eq(aiMessages.conversationId, conversationId)))
      .orderBy(asc(aiMessages.seq));
  }

  /** One question and its answer, and the conversation moved to the top of the list. */
  async append(
    tx: TenantTx,
    conversationId: string,
    question: string,
    answer: {
      content: string;
      citations: Citation[];
      proposals: { id: string }[];
      modelCalls: number;
      tokens: number;
    },
    at: Date,
  ): Promise<void> {
    // The conversation's row lock orders concurrent follow-ups; the seq continues after its last message.
    await this.lock(tx, conversationId);
    const [last] = await tx.db
      .select({ seq: sql<number>`coalesce(max(${aiMessages.seq}), 0)::int` })
      .from(aiMessages)
      .where(and(eq(aiMessages.workspaceId, tx.workspaceId), eq(aiMessages.conversationId, conversationId)));
    const seq = Number(last?.seq ?? 0);
    await tx.db.insert(aiMessages).values([
      { workspaceId: tx.workspaceId, conversationId, seq: seq + 1, role: 'user', content: question, createdAt: at },
      {
        workspaceId: tx.workspaceId,
        conversationId,
        seq: seq + 2,
        role: 'assistant',
        content: answer.content,
        citations: answer.citations,
        proposals: answer.proposals,
        modelCalls: answer.modelCalls,
        tokens: answer.tokens,
        createdAt: at,
      },
    ]);
    await tx.db.update(aiConversations).set({ updatedAt: at }).where(eq(aiConversations.id, conversationId));
  }

  /** The member's model calls and tokens in this workspace since `since` (the month's usage). */
  async usageSince(tx: TenantTx, since: Date): Promise<{ modelCalls: number; tokens: number }> {
    const [row] = await tx.db
      .select({
        modelCalls: sql<number>`coalesce(sum(${aiMessages.modelCalls}), 0)::int`,
        tokens: sql<number>`coalesce(sum(${aiMessages.tokens}), 0)::int`,
      })
      .from(aiMessages)
      .innerJoin(aiConversations, eq(aiConversations.id, aiMessages.conversationId))
      .where(and(this.mine(tx), gte(aiMessages.createdAt, since)));
    return { modelCalls: Number(row?.modelCalls ?? 0), tokens: Number(row?.tokens ?? 0) };
  }

  async remove(tx: TenantTx, id: string): Promise<boolean> {
    const rows = await tx.db
      .delete(aiConversations)
      .where(and(this.mine(tx), eq(aiConversations.id, id)))
      .returning({ id: aiConversations.id });
    return rows.length > 0;
  }
}
