import type { WorkspaceRole } from '@adpilot/contracts';
import { workspaceInvitations, workspaces, type SystemTx, type WorkspaceInvitationRow } from '@adpilot/db';
import { and, asc, count, eq, gt, inArray, isNull, ne } from 'drizzle-orm';

/** Neither accepted nor revoked, and not expired at `now`: an invitation that still holds a seat. */
const pending = (now: Date) =>
  and(
    isNull(workspaceInvitations.acceptedAt),
    isNull(workspaceInvitations.revokedAt),
    gt(workspaceInvitations.expiresAt, now),
  );

export interface NewInvitation {
  workspaceId: string;
  email: string;
  role: WorkspaceRole;
  tokenHash: string;
  invitedBy: string;
  expiresAt: Date;
}

/** An invitation with its workspace, as the invitation page and the accepting user see it. */
export type InvitationWithWorkspace = WorkspaceInvitationRow & { workspaceName: string; personal: boolean };

/**
 * The invitations' queries (ADR 0071), all on the system path: the workspace's admins reach them only after the
 * service checked their role in the workspace under its lock, and the invited person is nobody's member yet.
 */
export class InvitationsRepository {
  async insert(tx: SystemTx, invitation: NewInvitation): Promise<WorkspaceInvitationRow> {
    const [row] = await tx.db.insert(workspaceInvitations).values(invitation).returning();
    if (!row) throw new Error('the invitation was not made');
    return row;
  }

  /** The workspace's pending invitations, oldest first. */
  listPending(tx: SystemTx, workspaceId: string, now: Date): Promise<WorkspaceInvitationRow[]> {
    return tx.db
      .select()
      .from(workspaceInvitations)
      .where(and(eq(workspaceInvitations.workspaceId, workspaceId), pending(now)))
      .orderBy(asc(workspaceInvitations.createdAt), asc(workspaceInvitations.id));
  }

  async countPending(tx: SystemTx, workspaceId: string, now: Date): Promise<number> {
    const [row] = await tx.db
      .select({ n: count() })
      .from(workspaceInvitations)
      .where(and(eq(workspaceInvitations.workspaceId, workspaceId), pending(now)));
    return row?.n ?? 0;
  }

  /** The pending invitations of these workspaces that will take a seat (every role but viewer; ADR 0111). */
  pendingSeats(
    tx: SystemTx,
    workspaceIds: readonly string[],
    now: Date,
  ): Promise<{ workspaceId: string; email: string }[]> {
    if (workspaceIds.length === 0) return Promise.resolve([]);
    return tx.db
      .select({ workspaceId: workspaceInvitations.workspaceId, email: workspaceInvitations.email })
      .from(workspaceInvitations)
      .where(
        and(
          inArray(workspaceInvitations.workspaceId, [...workspaceIds]),
          ne(workspaceInvitations.role, 'viewer'),
          pending(now),
        ),
      );
  }

  async hasPendingFor(tx: SystemTx, workspaceId: string, email: string, now: Date): Promise<boolean> {
    const [row] = await tx.db
      .select({ id: workspaceInvitations.id })
      .from(workspaceInvitations)
      .where(
        and(eq(workspaceInvitations.workspaceId, workspaceId), eq(workspaceInvitations.email, email), pending(now)),
      )
      .limit(1);
    return row !== undefined;
  }

  /** One of the workspace's invitations, whatever its state. */
  async find(tx: SystemTx, workspaceId: string, id: string): Promise<WorkspaceInvitationRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(workspaceInvitations)
      .where(and(eq(workspaceInvitations.workspaceId, workspaceId), eq(workspaceInvitations.id, id)));
    return row;
  }

  /** Revokes a pending invitation; undefined when it was not pending. */
  async revoke(tx: SystemTx, workspaceId: string, id: string, now: Date): Promise<WorkspaceInvitationRow | undefined> {
    const [row] = await tx.db
      .update(workspaceInvitations)
      .set({ revokedAt: now })
      .where(and(eq(workspaceInvitations.workspaceId, workspaceId), eq(workspaceInvitations.id, id), pending(now)))
      .returning();
    return row;
  }

  /** A new token and expiry for an invitation neither accepted nor revoked; the old link stops working. */
  async renew(
    tx: SystemTx,
    id: string,
    tokenHash: string,
    expiresAt: Date,
  ): Promise<WorkspaceInvitationRow | undefined> {
    const [row] = await tx.db
      .update(workspaceInvitations)
      .set({ tokenHash, expiresAt })
      .where(
        and(
          eq(workspaceInvitations.id, id),
          isNull(workspaceInvitations.acceptedAt),
          isNull(workspaceInvitations.revokedAt),
        ),
      )
      .returning();
    return row;
  }

  /**
   * Moves a pending invitation from one link to another in one conditional update: false when it no longer carries
   * `from` (sent again, or claimed by another attempt) or is no longer pending at `now`.
   */
  async moveToken(tx: SystemTx, id: string, from: string, to: string, now: Date): Promise<boolean> {
    const rows = await tx.db
      .update(workspaceInvitations)
      .set({ tokenHash: to })
      .where(and(eq(workspaceInvitations.id, id), eq(workspaceInvitations.tokenHash, from), pending(now)))
      .returning({ id: workspaceInvitations.id });
    return rows.length === 1;
  }

  /** The invitation a link carries, with its workspace, whatever its state. */
  async byTokenHash(tx: SystemTx, tokenHash: string): Promise<InvitationWithWorkspace | undefined> {
    const [row] = await tx.db
      .select({ invitation: workspaceInvitations, workspaceName: workspaces.name, personal: workspaces.personal })
      .from(workspaceInvitations)
      .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
      .where(eq(workspaceInvitations.tokenHash, tokenHash));
    return row ? { ...row.invitation, workspaceName: row.workspaceName, personal: row.personal } : undefined;
  }

  /**
   * Accepts a pending invitation: one conditional update, so of two accepts at once exactly one changes the row and
   * the other finds it accepted. Undefined when it was not pending (or not for this address) at `now`.
   */
  async accept(
    tx: SystemTx,
    tokenHash: string,
    email: string,
    userId: string,
    now: Date,
  ): Promise<WorkspaceInvitationRow | undefined> {
    const [row] = await tx.db
      .update(workspaceInvitations)
      .set({ acceptedAt: now, acceptedBy: userId })
      .where(and(eq(workspaceInvitations.tokenHash, tokenHash), eq(workspaceInvitations.email, email), pending(now)))
      .returning();
    return row;
  }
}
