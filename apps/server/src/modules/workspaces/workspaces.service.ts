import {
  hasRole,
  OUTBOUND_MAIL_MESSAGES,
  WORKSPACES_PER_PERSON,
  type Workspace,
  type WorkspaceMember,
  type WorkspaceRole,
} from '@adpilot/contracts';
import type { SystemTx, TenantTx, Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { Membership, MembershipCache } from './membership-cache.ts';
import { accessIn, roleNeeded } from './workspace-access.ts';
import { actingFor, type PlanPool, type WorkspacesRepository } from './workspaces.repository.ts';

/** The activity writer, as every module is handed it. */
export type WorkspaceActivity = Pick<ActivityRepository, 'insert'>;
/** Who the members are: auth's users, read in this module's unit of work (ADR 0066). */
export type People = Pick<AuthService, 'profilesIn'>;

export interface WorkspacesDeps {
  transactions: Transactions;
  repository: WorkspacesRepository;
  memberships: MembershipCache;
  activity: WorkspaceActivity;
  people: People;
  /** Refuses a seat the plan has not left (the invitations' check, ADR 0111): a viewer made editor takes one. */
  seats: { reserveIn(tx: SystemTx, workspaceId: string, person: { email: string; userId: string }): Promise<void> };
}

export type WorkspaceActivityCode =
  | 'workspace_created'
  | 'workspace_renamed'
  | 'workspace_deleted'
  | 'workspace_member_invited'
  | 'workspace_invitation_accepted'
  | 'workspace_member_role_changed'
  | 'workspace_member_removed'
  | 'workspace_member_left'
  | 'workspace_transfer_offered'
  | 'workspace_transferred';

/**
 * Writes a workspace entry in `workspaceId`'s log, signed by `actorId`, in the caller's unit of work. The stored
 * description is the English sentence; the code and parameters word it in the reader's language.
 */
export function recordIn(
  activity: WorkspaceActivity,
  tx: SystemTx,
  entry: {
    workspaceId: string;
    actorId: string;
    code: WorkspaceActivityCode;
    params: Record<string, string>;
    description: string;
    level?: 'info' | 'success';
  },
): Promise<unknown> {
  return activity.insert(actingFor(tx, { workspaceId: entry.workspaceId, userId: entry.actorId }), {
    level: entry.level ?? 'info',
    category: 'workspace',
    description: entry.description,
    metadata: { code: entry.code, params: entry.params },
  });
}

const memberNotFound = () => AppError.notFound('Member not found');
const lastOwner = () =>
  AppError.conflict('A workspace needs an owner: make another member owner first', 'WORKSPACE_LAST_OWNER');
const personalOwner = () =>
  AppError.conflict('The owner of a personal workspace stays its owner', 'WORKSPACE_PERSONAL');

const payerOwner = () =>
  AppError.conflict(
    'The owner who pays for this workspace stays its owner: hand the workspace over first',
    'WORKSPACE_PAYER',
  );

/** Workspaces and their members (ADR 0070, 0071). */
export class WorkspacesService {
  constructor(private readonly deps: WorkspacesDeps) {}

  /**
   * Makes a new user's personal workspace with them as owner, in the unit of work that makes the user (sign-up),
   * so there is never a user without one. Returns the workspace's id.
   */
  createPersonal(tx: SystemTx, owner: { id: string; name: string }): Promise<string> {
    return this.deps.repository.createPersonal(tx, owner);
  }

  /** GET /api/workspaces: the signed-in user's workspaces and their role in each, their own personal one first. */
  async list(userId: string): Promise<Workspace[]> {
    return (await this.memberships(userId)).map(({ id, name, role, personal }) => ({ id, name, role, personal }));
  }

  private memberships(userId: string) {
    return this.deps.transactions.user(userId, (tx) => this.deps.repository.listOfMember(tx));
  }

  /**
   * The user's membership in `workspaceId`, or in their own personal workspace when absent (listed first); null
   * when they are not a member (the request's current workspace, through the membership cache).
   */
  resolve(userId: string, workspaceId: string | undefined): Promise<Membership | null> {
    return this.deps.memberships.resolve(userId, workspaceId, async () =>
      (await this.memberships(userId)).map((w) => ({
        workspaceId: w.id,
        role: w.role,
        personal: w.personal,
        own: w.own,
      })),
    );
  }

  /** Calls `onChange` whenever the user's memberships may have changed (a stream checks its access again). */
  watch(userId: string, onChange: () => void): () => void {
    return this.deps.memberships.watch(userId, onChange);
  }

  /** The plan pool a workspace belongs to (ADR 0110), in the caller's unit of work; undefined for none. */
  poolIn(tx: SystemTx, workspaceId: string): Promise<PlanPool | undefined> {
    return this.deps.repository.poolOf(tx, workspaceId);
  }

  /** The workspace holding the plan of each of these workspaces (the scheduler's read). */
  holdersIn(tx: SystemTx, workspaceIds: readonly string[]): Promise<Map<string, string>> {
    return this.deps.repository.holdersOf(tx, workspaceIds);
  }

  /** Whether a workspace with this id exists (a Stripe event naming one of ours). */
  existsIn(tx: SystemTx, id: string): Promise<boolean> {
    return this.deps.repository.exists(tx, id);
  }

  /** A workspace's name (a scheduled report's heading), null for none. */
  async nameIn(tx: SystemTx, id: string): Promise<string | null> {
    return (await this.deps.repository.find(tx, id))?.name ?? null;
  }

  /** Every workspace, with its owners' ids and member count (the instance administrator's list). */
  allIn(tx: SystemTx) {
    return this.deps.repository.all(tx);
  }

  /** The owners of a workspace (who hears about its bill). */
  ownerIdsIn(tx: SystemTx, id: string): Promise<string[]> {
    return this.deps.repository.ownerIds(tx, id);
  }

  /** POST /api/workspaces: a shared workspace, the user its owner. */
  async create(userId: string, name: string): Promise<Workspace> {
    return this.deps.transactions.system('workspace create', async (tx) => {
      if ((await this.deps.repository.lockAndCountOwned(tx, userId)) >= WORKSPACES_PER_PERSON)
        throw new AppError(
          'WORKSPACE_LIMIT_REACHED',
          OUTBOUND_MAIL_MESSAGES.workspaceLimit,
          409,
          undefined,
          undefined,
          {
            limit: WORKSPACES_PER_PERSON,
          },
        );
      const workspace = await this.deps.repository.create(tx, name, userId);
      await recordIn(this.deps.activity, tx, {
        workspaceId: workspace.id,
        actorId: userId,
        code: 'workspace_created',
        params: { workspace: name },
        description: `Created workspace "${name}"`,
        level: 'success',
      });
      return { id: workspace.id, name: workspace.name, role: 'owner' as const, personal: false };
    });
  }

  /** PATCH /api/workspaces/:id (admin or owner). */
  async rename(userId: string, workspaceId: string, name: string): Promise<Workspace> {
    return this.deps.transactions.system('workspace rename', async (tx) => {
      const { workspace, role } = await accessIn(tx, this.deps.repository, {
        workspaceId,
        userId,
        needed: 'admin',
        lock: true,
      });
      if (workspace.name !== name) {
        await this.deps.repository.rename(tx, workspace.id, name);
        await recordIn(this.deps.activity, tx, {
          workspaceId,
          actorId: userId,
          code: 'workspace_renamed',
          params: { from: workspace.name, to: name },
          description: `Renamed workspace "${workspace.name}" to "${name}"`,
        });
      }
      return { id: workspace.id, name, role, personal: workspace.personal };
    });
  }

  /**
   * DELETE /api/workspaces/:id (owner; a personal workspace stays). The entry goes to the owner's personal
   * workspace's log, since the workspace's own goes with it; every member's next request finds it gone.
   */
  async delete(userId: string, workspaceId: string): Promise<void> {
    const members = await this.deps.transactions.system('workspace delete', async (tx) => {
      const { workspace } = await accessIn(tx, this.deps.repository, {
        workspaceId,
        userId,
        needed: 'owner',
        lock: true,
      });
      if (workspace.personal) throw AppError.conflict('A personal workspace cannot be deleted', 'WORKSPACE_PERSONAL');
      const members = await this.deps.repository.members(tx, workspaceId);
      await this.deps.repository.delete(tx, workspaceId);
      const personal = await this.deps.repository.personalOf(tx, userId);
      if (personal) {
        await recordIn(this.deps.activity, tx, {
          workspaceId: personal,
          actorId: userId,
          code: 'workspace_deleted',
          params: { workspace: workspace.name },
          description: `Deleted workspace "${workspace.name}"`,
        });
      }
      return members;
    });
    for (const member of members) this.deps.memberships.evict(member.userId);
  }

  /**
   * Seats the demo's visitor in `workspaceId` as a viewer and out of every other workspace (ADR 0185), in one unit of
   * work on the system path: a demo session sees one demo workspace, the new one once a rebuild moved it. A viewer
   * takes no seat of the plan (ADR 0111).
   */
  async seatDemoVisitor(visitorId: string, workspaceId: string): Promise<void> {
    await this.deps.transactions.system('demo visitor seat', async (tx) => {
      for (const other of await this.deps.repository.workspaceIdsOf(tx, visitorId)) {
        if (other !== workspaceId) await this.deps.repository.removeMember(tx, other, visitorId);
      }
      await this.deps.repository.addMember(tx, workspaceId, visitorId, 'viewer');
    });
    this.deps.memberships.evict(visitorId);
  }

  /** GET /api/workspaces/:id/members (any member): read on the system path once the caller's membership is known. */
  async members(userId: string, workspaceId: string): Promise<WorkspaceMember[]> {
    return this.deps.transactions.system('workspace members', async (tx) => {
      await accessIn(tx, this.deps.repository, { workspaceId, userId, needed: 'viewer' });
      return this.membersIn(tx, workspaceId);
    });
  }

  /**
   * PATCH /api/workspaces/:id/members/:userId (admin or owner). Only an owner makes or unmakes an owner; the last
   * owner, and the owner of a personal workspace, stay owners.
   */
  async changeRole(
    actorId: string,
    workspaceId: string,
    memberId: string,
    role: WorkspaceRole,
  ): Promise<WorkspaceMember> {
    const { member, changed } = await this.deps.transactions.system('workspace member role', async (tx) => {
      const access = await accessIn(tx, this.deps.repository, {
        workspaceId,
        userId: actorId,
        needed: 'admin',
        lock: true,
      });
      const current = await this.deps.repository.roleOf(tx, workspaceId, memberId);
      if (!current) throw memberNotFound();
      if ((current === 'owner' || role === 'owner') && access.role !== 'owner') throw roleNeeded('owner');
      if (current === 'owner' && role !== 'owner') await this.keepAnOwner(tx, access.workspace, memberId);
      const [person] = await this.deps.people.profilesIn(tx, [memberId]);
      if (!person) throw memberNotFound();
      if (current === role)
        return { member: { userId: memberId, name: person.name, email: person.email, role }, changed: false };
      if (current === 'viewer')
        await this.deps.seats.reserveIn(tx, workspaceId, { email: person.email, userId: memberId });
      await this.deps.repository.setRole(tx, workspaceId, memberId, role);
      await recordIn(this.deps.activity, tx, {
        workspaceId,
        actorId,
        code: 'workspace_member_role_changed',
        params: { member: person.name, from: current, to: role },
        description: `Changed ${person.name}'s role from ${current} to ${role}`,
      });
      return { member: { userId: memberId, name: person.name, email: person.email, role }, changed: true };
    });
    if (changed) this.deps.memberships.evict(memberId);
    return member;
  }

  /**
   * DELETE /api/workspaces/:id/members/:userId: anyone leaves; an admin or owner removes others, an owner alone
   * removes an owner. The last owner, and the owner of a personal workspace, stay. The member's next request is
   * refused at once (the cache forgets them here, and every other process on the trigger's NOTIFY).
   */
  async removeMember(actorId: string, workspaceId: string, memberId: string): Promise<void> {
    const leaving = actorId === memberId;
    await this.deps.transactions.system('workspace member remove', async (tx) => {
      const access = await accessIn(tx, this.deps.repository, {
        workspaceId,
        userId: actorId,
        needed: leaving ? 'viewer' : 'admin',
        lock: true,
      });
      const current = leaving ? access.role : await this.deps.repository.roleOf(tx, workspaceId, memberId);
      if (!current) throw memberNotFound();
      if (current === 'owner' && !hasRole(access.role, 'owner')) throw roleNeeded('owner');
      if (current === 'owner') await this.keepAnOwner(tx, access.workspace, memberId);
      const [person] = await this.deps.people.profilesIn(tx, [memberId]);
      const name = person?.name ?? '';
      await recordIn(this.deps.activity, tx, {
        workspaceId,
        actorId,
        code: leaving ? 'workspace_member_left' : 'workspace_member_removed',
        params: { member: name },
        description: leaving ? `${name} left the workspace` : `Removed ${name} from the workspace`,
      });
      await this.deps.repository.removeMember(tx, workspaceId, memberId);
    });
    this.deps.memberships.evict(memberId);
  }

  /** The user ids of a workspace's members, in the caller's unit of work (outbound mail's insiders). */
  async memberIdsIn(tx: SystemTx, workspaceId: string): Promise<string[]> {
    return (await this.deps.repository.members(tx, workspaceId)).map((m) => m.userId);
  }

  /** The members of a workspace with their names and addresses, in the caller's unit of work. */
  async membersIn(tx: SystemTx, workspaceId: string): Promise<WorkspaceMember[]> {
    const members = await this.deps.repository.members(tx, workspaceId);
    const people = new Map(
      (
        await this.deps.people.profilesIn(
          tx,
          members.map((m) => m.userId),
        )
      ).map((person) => [person.id, person]),
    );
    return members.map((m) => ({
      userId: m.userId,
      name: people.get(m.userId)?.name ?? '',
      email: people.get(m.userId)?.email ?? '',
      role: m.role,
    }));
  }

  /**
   * Refuses to take the owner role from `memberId` when no other owner would be left, the workspace is theirs, or
   * they pay for it (ADR 0110: a handover moves the plan first).
   */
  private async keepAnOwner(
    tx: SystemTx,
    workspace: { id: string; personalOwnerId: string | null; payerId: string | null },
    memberId: string,
  ): Promise<void> {
    if ((await this.deps.repository.countMembers(tx, workspace.id, 'owner')) <= 1) throw lastOwner();
    if (workspace.personalOwnerId === memberId) throw personalOwner();
    if (workspace.payerId === memberId) throw payerOwner();
  }

  /** The role of a unit of work's person in its workspace, in that unit (a notification deciding what it carries). */
  roleIn(tx: TenantTx): Promise<WorkspaceRole | null> {
    return this.deps.repository.roleIn(tx);
  }
}
