import { agentPolicies, type AgentPolicyRow, type TenantTx } from '@adpilot/db';
import { eq } from 'drizzle-orm';

export interface PolicyFields {
  maxBudgetChangePercent: number;
  maxChangesPerDay: number;
  protectedCampaignIds: string[];
}

/** A workspace's agent policy (ADR 0154): one row, or none while the defaults apply. */
export class AgentPolicyRepository {
  async find(tx: TenantTx): Promise<AgentPolicyRow | undefined> {
    const [row] = await tx.db.select().from(agentPolicies).where(eq(agentPolicies.workspaceId, tx.workspaceId));
    return row;
  }

  async save(tx: TenantTx, fields: PolicyFields, at: Date): Promise<AgentPolicyRow> {
    const values = { ...fields, updatedBy: tx.userId, updatedAt: at };
    const [row] = await tx.db
      .insert(agentPolicies)
      .values({ ...values, workspaceId: tx.workspaceId })
      .onConflictDoUpdate({ target: agentPolicies.workspaceId, set: values })
      .returning();
    if (!row) throw new Error('upsert returned no row');
    return row;
  }
}
