import { automationRules, ruleActions, ruleRuns, type RuleActionRow, type RuleRunRow } from '@adpilot/db';
import type { SystemTx, TenantTx } from '@adpilot/db';
import { and, asc, count, desc, eq, gt, inArray, isNull, lt, lte, or } from 'drizzle-orm';

/** A ledger row still to be written: planned, or postponed by a Meta limit. */
const PENDING = ['planned', 'postponed'] as const;

/**
 * The proposals of approve-mode rules: ledger rows (`rule_actions`) with a `proposal` status (ADR 0073). Their
 * decision, expiry and the Inbox's reads; the rows' writing stays the ledger's and the executor's.
 */
export class ProposalsRepository {
  /** Closes the workspace's proposals whose time ran out by `at`; answers them, each closed once. */
  expireDue(tx: TenantTx, at: Date): Promise<RuleActionRow[]> {
    return tx.db
      .update(ruleActions)
      .set({ proposal: 'expired', decidedAt: at, updatedAt: at })
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          eq(ruleActions.proposal, 'pending'),
          lte(ruleActions.expiresAt, at),
        ),
      )
      .returning();
  }

  /** Every workspace's proposals still waiting at `at` (the metrics' gauge, on the system path). */
  async countPending(tx: SystemTx, at: Date): Promise<number> {
    const [row] = await tx.db
      .select({ count: count() })
      .from(ruleActions)
      .where(and(eq(ruleActions.proposal, 'pending'), gt(ruleActions.expiresAt, at)));
    return row?.count ?? 0;
  }

  /** The workspaces with a proposal whose time ran out by `at` (the periodic expiry, on the system path). */
  async workspacesWithExpired(tx: SystemTx, at: Date): Promise<string[]> {
    const rows = await tx.db
      .selectDistinct({ workspaceId: ruleActions.workspaceId })
      .from(ruleActions)
      .where(and(eq(ruleActions.proposal, 'pending'), lte(ruleActions.expiresAt, at)));
    return rows.map((row) => row.workspaceId);
  }

  /**
   * Approved proposals still to be written whose run has ended and that nobody holds, decided before `before`: left
   * by a process that died between an approval and its write. One entry per run.
   */
  async strandedApprovals(
    tx: SystemTx,
    before: Date,
    now: Date,
  ): Promise<Pick<RuleRunRow, 'workspaceId' | 'id' | 'ruleId' | 'slot' | 'trigger'>[]> {
    return tx.db
      .selectDistinct({
        workspaceId: ruleRuns.workspaceId,
        id: ruleRuns.id,
        ruleId: ruleRuns.ruleId,
        slot: ruleRuns.slot,
        trigger: ruleRuns.trigger,
      })
      .from(ruleActions)
      .innerJoin(ruleRuns, eq(ruleRuns.id, ruleActions.runId))
      .where(
        and(
          eq(ruleActions.proposal, 'approved'),
          inArray(ruleActions.state, [...PENDING]),
          lt(ruleActions.decidedAt, before),
          or(isNull(ruleActions.leaseUntil), lt(ruleActions.leaseUntil, now)),
          inArray(ruleRuns.status, ['completed', 'failed']),
        ),
      );
  }

  /** The workspace's proposals in one status, each with its rule's name (none: proposed by hand), the newest first. */
  listProposals(
    tx: TenantTx,
    status: NonNullable<RuleActionRow['proposal']>,
    limit: number,
  ): Promise<{ row: RuleActionRow; ruleName: string | null }[]> {
    return tx.db
      .select({ row: ruleActions, ruleName: automationRules.name })
      .from(ruleActions)
      .leftJoin(automationRules, eq(automationRules.id, ruleActions.ruleId))
      .where(and(eq(ruleActions.workspaceId, tx.workspaceId), eq(ruleActions.proposal, status)))
      .orderBy(status === 'pending' ? asc(ruleActions.expiresAt) : desc(ruleActions.decidedAt), asc(ruleActions.id))
      .limit(limit);
  }

  /** How many proposals of the workspace wait for a decision and have not run out of time by `at`. */
  async countWaiting(tx: TenantTx, at: Date): Promise<number> {
    const [row] = await tx.db
      .select({ count: count() })
      .from(ruleActions)
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          eq(ruleActions.proposal, 'pending'),
          gt(ruleActions.expiresAt, at),
        ),
      );
    return row?.count ?? 0;
  }

  /** A run's proposals still waiting. */
  runProposals(tx: TenantTx, runId: string): Promise<RuleActionRow[]> {
    return tx.db
      .select()
      .from(ruleActions)
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          eq(ruleActions.runId, runId),
          eq(ruleActions.proposal, 'pending'),
        ),
      )
      .orderBy(asc(ruleActions.createdAt), asc(ruleActions.id));
  }

  /**
   * Decides a pending proposal: `approved` makes its row `planned` for the executor. Conditional on the proposal
   * still waiting (and, to approve, not past its time), so of two decisions at the same moment exactly one lands.
   */
  async decideProposal(
    tx: TenantTx,
    id: string,
    decision: 'approved' | 'rejected' | 'stale',
    at: Date,
  ): Promise<RuleActionRow | undefined> {
    const [row] = await tx.db
      .update(ruleActions)
      .set({
        proposal: decision,
        decidedAt: at,
        decidedBy: tx.userId,
        updatedAt: at,
        ...(decision === 'approved' ? { state: 'planned' as const } : {}),
      })
      .where(
        and(
          eq(ruleActions.workspaceId, tx.workspaceId),
          eq(ruleActions.id, id),
          eq(ruleActions.proposal, 'pending'),
          eq(ruleActions.state, 'proposed'),
          ...(decision === 'approved' ? [gt(ruleActions.expiresAt, at)] : []),
        ),
      )
      .returning();
    return row;
  }
}
