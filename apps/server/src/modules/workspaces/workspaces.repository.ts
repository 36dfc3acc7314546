import { workspaceMembers, workspaces, type SystemTx, type UserTx } from '@adpilot/db';
import { and, asc, desc, eq, sql } from 'drizzle-orm';

/** The workspaces module's queries; no other module reads or writes its tables (ADR 0064). */
export class WorkspacesRepository {
  /** A user's personal workspace and their owner membership, in the caller's unit of work. */
  async createPersonal(tx: SystemTx, owner: { id: string; name: string }): Promise<string> {
    const [workspace] = await tx.db
      .insert(workspaces)
      .values({ name: owner.name, personal: true, personalOwnerId: owner.id })
      .returning({ id: workspaces.id });
    if (!workspace) throw new Error('the personal workspace was not made');
    await tx.db.insert(workspaceMembers).values({ workspaceId: workspace.id, userId: owner.id, role: 'owner' });
    return workspace.id;
  }

  /**
   * The workspaces the user of `tx` is a member of, their own personal one first (the policies filter as well).
   * `own` tells the user's own personal workspace from another member's personal workspace they were invited to.
   */
  listOfMember(tx: UserTx) {
    const own = sql<boolean>`coalesce(${workspaces.personalOwnerId} = ${tx.userId}, false)`;
    return tx.db
      .select({
        id: workspaces.id,
        name: workspaces.name,
        role: workspaceMembers.role,
        personal: workspaces.personal,
        own,
      })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(eq(workspaceMembers.userId, tx.userId))
      .orderBy(desc(own), desc(workspaces.personal), asc(workspaces.createdAt), asc(workspaces.id));
  }

  async exists(tx: SystemTx, id: string): Promise<boolean> {
    const [row] = await tx.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, id));
    return row !== undefined;
  }

  async ownerIds(tx: SystemTx, id: string): Promise<string[]> {
    const rows = await tx.db
      .select({ userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, id), eq(workspaceMembers.role, 'owner')));
    return rows.map((row) => row.userId);
  }
}
