import { ruleActions, type TenantTx } from '@adpilot/db';
import { and, count, eq, gte, inArray, isNull } from 'drizzle-orm';

/**
 * The changes agents applied themselves in a workspace (ADR 0145, 0154): ledger rows by an agent's credential that
 * were written or are being written, never proposals (an approved proposal is a person's decision). `apply_change`
 * counts them against the agent policy's changes per day.
 */
export class AgentChangesRepository {
  async appliedSince(tx: TenantTx, since: Date): Promise<number> {
    const [row] = await tx.db
      .select({ n: count() })
      .from(ruleActions)
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          eq(ruleActions.actorType, 'agent'),
          isNull(ruleActions.ruleId),
          isNull(ruleActions.proposal),
          inArray(ruleActions.state, ['planned', 'postponed', 'applied', 'reverted']),
          gte(ruleActions.createdAt, since),
        ),
      );
    return Number(row?.n ?? 0);
  }
}
