import { workspaceMembers, workspaces, workspaceTransfers, type SystemTx } from '@adpilot/db';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';

/** Open handovers of workspaces (issue 31), on the system path only. */
export class HandoverRepository {
  /** Offers `workspaceId` to `toUserId`, closing any earlier open offer of it. */
  async offer(tx: SystemTx, input: { workspaceId: string; fromUserId: string; toUserId: string }, at: Date) {
    await tx.db
      .update(workspaceTransfers)
      .set({ canceledAt: at })
      .where(
        and(
          eq(workspaceTransfers.workspaceId, input.workspaceId),
          isNull(workspaceTransfers.acceptedAt),
          isNull(workspaceTransfers.canceledAt),
        ),
      );
    const [row] = await tx.db.insert(workspaceTransfers).values(input).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** An open offer made to `toUserId`, undefined when it is not (any longer) theirs to accept. */
  async openFor(tx: SystemTx, id: string, toUserId: string) {
    const [row] = await tx.db
      .select()
      .from(workspaceTransfers)
      .where(
        and(
          eq(workspaceTransfers.id, id),
          eq(workspaceTransfers.toUserId, toUserId),
          isNull(workspaceTransfers.acceptedAt),
          isNull(workspaceTransfers.canceledAt),
        ),
      );
    return row;
  }

  async accept(tx: SystemTx, id: string, at: Date): Promise<void> {
    await tx.db.update(workspaceTransfers).set({ acceptedAt: at }).where(eq(workspaceTransfers.id, id));
  }

  /** The open offers made to a person, or by them when `side` is `from`, the newest first, with the workspace's name. */
  listOpen(tx: SystemTx, userId: string, side: 'to' | 'from') {
    return tx.db
      .select({
        id: workspaceTransfers.id,
        workspaceId: workspaceTransfers.workspaceId,
        workspaceName: workspaces.name,
        fromUserId: workspaceTransfers.fromUserId,
        toUserId: workspaceTransfers.toUserId,
        createdAt: workspaceTransfers.createdAt,
      })
      .from(workspaceTransfers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceTransfers.workspaceId))
      .where(
        and(
          eq(side === 'to' ? workspaceTransfers.toUserId : workspaceTransfers.fromUserId, userId),
          isNull(workspaceTransfers.acceptedAt),
          isNull(workspaceTransfers.canceledAt),
        ),
      )
      .orderBy(desc(workspaceTransfers.createdAt));
  }

  /** A person's memberships with each workspace's payer, the personal one first (My account). */
  membershipsOf(tx: SystemTx, userId: string) {
    return tx.db
      .select({
        id: workspaces.id,
        name: workspaces.name,
        role: workspaceMembers.role,
        personal: workspaces.personal,
        personalOwnerId: workspaces.personalOwnerId,
        payerId: workspaces.payerId,
      })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(eq(workspaceMembers.userId, userId))
      .orderBy(desc(workspaces.personal), asc(workspaces.createdAt), asc(workspaces.id));
  }
}
