import type { WorkspaceRole } from '@adpilot/contracts';
import {
  asTenantTx,
  workspaceMembers,
  workspaces,
  type SystemTx,
  type TenantScope,
  type TenantTx,
  type UserTx,
  type WorkspaceRow,
  selectRows,
} from '@adpilot/db';
import { and, asc, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';

/** A payer's plan and the workspaces it covers (ADR 0110). */
export interface PlanPool {
  /** Null: the payer is gone, the workspace holds its own plan. */
  payerId: string | null;
  /** The workspace whose subscription row is the plan (the payer's personal one). */
  holderId: string;
  workspaces: { id: string; name: string; personal: boolean }[];
}

/**
 * The system unit of work `tx` acting for a member of a workspace: what other modules' writers take (the activity
 * entry, signed by `scope.userId`), so an entry commits with the change it describes. Workspaces and memberships are
 * written on the system path only (ADR 0070), and a member who leaves is no member once the row is gone, so the
 * tenant path could not write the entry in the same transaction (ADR 0071).
 */
export function actingFor(tx: SystemTx, scope: TenantScope): TenantTx {
  return asTenantTx(tx.db, scope);
}

/** The workspaces module's queries; no other module reads or writes its tables (ADR 0064). */
export class WorkspacesRepository {
  /** A user's personal workspace and their owner membership, in the caller's unit of work. */
  async createPersonal(tx: SystemTx, owner: { id: string; name: string }): Promise<string> {
    const [workspace] = await tx.db
      .insert(workspaces)
      .values({ name: owner.name, personal: true, personalOwnerId: owner.id, payerId: owner.id })
      .returning({ id: workspaces.id });
    if (!workspace) throw new Error('the personal workspace was not made');
    await tx.db.insert(workspaceMembers).values({ workspaceId: workspace.id, userId: owner.id, role: 'owner' });
    return workspace.id;
  }

  /** Every workspace with its owners' ids and its member count, oldest first (the administrator's list). */
  all(tx: SystemTx): Promise<{ id: string; name: string; personal: boolean; members: number; ownerIds: string[] }[]> {
    return tx.db
      .select({
        id: workspaces.id,
        name: workspaces.name,
        personal: workspaces.personal,
        members: sql<number>`count(${workspaceMembers.userId})::int`,
        ownerIds: sql<
          string[]
        >`coalesce(array_agg(${workspaceMembers.userId}::text) filter (where ${workspaceMembers.role} = 'owner'), '{}')`,
      })
      .from(workspaces)
      .leftJoin(workspaceMembers, eq(workspaceMembers.workspaceId, workspaces.id))
      .groupBy(workspaces.id)
      .orderBy(asc(workspaces.createdAt), asc(workspaces.id));
  }

  /**
   * Takes the person's workspace-creation lock until the unit of work ends, then counts the workspaces they own: of
   * two creations at once the second counts the first (ADR 0093).
   */
  async lockAndCountOwned(tx: SystemTx, userId: string): Promise<number> {
    await tx.db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`workspace-create:${userId}`}, 0))`);
    const [row] = await tx.db
      .select({ n: count() })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, 'owner')));
    return row?.n ?? 0;
  }

  /** A shared workspace with its first member, `ownerId`, as owner. */
  async create(tx: SystemTx, name: string, ownerId: string): Promise<WorkspaceRow> {
    // A new workspace joins its owner's plan (ADR 0110).
    const [workspace] = await tx.db.insert(workspaces).values({ name, payerId: ownerId }).returning();
    if (!workspace) throw new Error('the workspace was not made');
    await tx.db.insert(workspaceMembers).values({ workspaceId: workspace.id, userId: ownerId, role: 'owner' });
    return workspace;
  }

  /**
   * The workspaces the user of `tx` is a member of, their own personal one first (the default workspace; another
   * member's personal workspace they were invited to is listed with the rest; `own` tells them apart). The
   * policies filter as well.
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

  /**
   * The workspace row, locked for update until the unit of work ends: every change of its members, invitations
   * and seats takes this lock first, so counts read under it stay true until the change commits (ADR 0071).
   */
  async lock(tx: SystemTx, id: string): Promise<WorkspaceRow | undefined> {
    const [row] = await tx.db.select().from(workspaces).where(eq(workspaces.id, id)).for('update');
    return row;
  }

  /**
   * The plan pool `workspaceId` belongs to (ADR 0110): its payer, the workspace holding the plan (the payer's
   * personal one) and every workspace the payer pays for, their personal one first. A workspace whose payer is gone
   * is a pool of its own, holding its own plan. Undefined for no such workspace.
   */
  async poolOf(tx: SystemTx, workspaceId: string): Promise<PlanPool | undefined> {
    const [row] = await selectRows<{ payer_id: string | null; holder_id: string | null }>(
      tx.db,
      sql`select w.payer_id, h.id as holder_id from ${workspaces} w
          left join ${workspaces} h on h.personal_owner_id = w.payer_id where w.id = ${workspaceId}`,
    );
    if (!row) return undefined;
    if (!row.payer_id || !row.holder_id) {
      const own = await this.find(tx, workspaceId);
      if (!own) return undefined;
      return { payerId: null, holderId: own.id, workspaces: [{ id: own.id, name: own.name, personal: own.personal }] };
    }
    const members = await tx.db
      .select({ id: workspaces.id, name: workspaces.name, personal: workspaces.personal })
      .from(workspaces)
      .where(eq(workspaces.payerId, row.payer_id))
      .orderBy(desc(workspaces.personal), asc(workspaces.createdAt), asc(workspaces.id));
    return { payerId: row.payer_id, holderId: row.holder_id, workspaces: members };
  }

  /** The workspace holding the plan of each of these workspaces (the scheduler's read across tenants). */
  async holdersOf(tx: SystemTx, workspaceIds: readonly string[]): Promise<Map<string, string>> {
    if (workspaceIds.length === 0) return new Map();
    const rows = await selectRows<{ id: string; holder_id: string }>(
      tx.db,
      sql`select w.id, coalesce(h.id, w.id) as holder_id from ${workspaces} w
          left join ${workspaces} h on h.personal_owner_id = w.payer_id
          where w.id in (${sql.join(
            workspaceIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
    );
    return new Map(rows.map((row) => [row.id, row.holder_id]));
  }

  /** Moves a workspace under another payer's plan (a handover). */
  async setPayer(tx: SystemTx, id: string, payerId: string): Promise<void> {
    await tx.db.update(workspaces).set({ payerId }).where(eq(workspaces.id, id));
  }

  async find(tx: SystemTx, id: string): Promise<WorkspaceRow | undefined> {
    const [row] = await tx.db.select().from(workspaces).where(eq(workspaces.id, id));
    return row;
  }

  /** The user's personal workspace's id. */
  async personalOf(tx: SystemTx, userId: string): Promise<string | undefined> {
    const [row] = await tx.db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.personalOwnerId, userId));
    return row?.id;
  }

  async rename(tx: SystemTx, id: string, name: string): Promise<void> {
    await tx.db.update(workspaces).set({ name }).where(eq(workspaces.id, id));
  }

  /** Deletes the workspace and, by cascade, everything it owns. */
  async delete(tx: SystemTx, id: string): Promise<void> {
    await tx.db.delete(workspaces).where(eq(workspaces.id, id));
  }

  /** The user's role in the workspace, or undefined when they are not a member. */
  async roleOf(tx: SystemTx, workspaceId: string, userId: string): Promise<WorkspaceRole | undefined> {
    const [row] = await tx.db
      .select({ role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    return row?.role;
  }

  /** Every member of the workspace, the earliest first. */
  members(tx: SystemTx, workspaceId: string): Promise<{ userId: string; role: WorkspaceRole }[]> {
    return tx.db
      .select({ userId: workspaceMembers.userId, role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(eq(workspaceMembers.workspaceId, workspaceId))
      .orderBy(asc(workspaceMembers.createdAt), asc(workspaceMembers.userId));
  }

  /** The members of these workspaces who take a seat (every role but viewer; ADR 0111). */
  seatHolders(tx: SystemTx, workspaceIds: readonly string[]): Promise<{ workspaceId: string; userId: string }[]> {
    if (workspaceIds.length === 0) return Promise.resolve([]);
    return tx.db
      .select({ workspaceId: workspaceMembers.workspaceId, userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .where(and(inArray(workspaceMembers.workspaceId, [...workspaceIds]), ne(workspaceMembers.role, 'viewer')));
  }

  async countMembers(tx: SystemTx, workspaceId: string, role?: WorkspaceRole): Promise<number> {
    const [row] = await tx.db
      .select({ n: count() })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), role ? eq(workspaceMembers.role, role) : undefined));
    return row?.n ?? 0;
  }

  /** The ids of the workspaces the user is a member of, the newest membership first. */
  async workspaceIdsOf(tx: SystemTx, userId: string): Promise<string[]> {
    const rows = await tx.db
      .select({ id: workspaceMembers.workspaceId })
      .from(workspaceMembers)
      .where(eq(workspaceMembers.userId, userId))
      .orderBy(desc(workspaceMembers.createdAt));
    return rows.map((row) => row.id);
  }

  /** Adds a member; false when the user already is one (their role stays). */
  async addMember(tx: SystemTx, workspaceId: string, userId: string, role: WorkspaceRole): Promise<boolean> {
    const rows = await tx.db
      .insert(workspaceMembers)
      .values({ workspaceId, userId, role })
      .onConflictDoNothing()
      .returning({ userId: workspaceMembers.userId });
    return rows.length === 1;
  }

  async setRole(tx: SystemTx, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
    await tx.db
      .update(workspaceMembers)
      .set({ role })
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  }

  async removeMember(tx: SystemTx, workspaceId: string, userId: string): Promise<void> {
    await tx.db
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
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

  /** The role of the unit of work's person in its workspace, read in that unit (a member reads their own row). */
  async roleIn(tx: TenantTx): Promise<WorkspaceRole | null> {
    if (tx.userId === null) return null;
    const [row] = await tx.db
      .select({ role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, tx.workspaceId), eq(workspaceMembers.userId, tx.userId)));
    return row?.role ?? null;
  }
}
