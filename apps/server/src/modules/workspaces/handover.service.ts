import {
  ACCOUNT_MESSAGES,
  WORKSPACE_TRANSFER_MESSAGES,
  type AccountWorkspace,
  type WorkspaceFate,
  type WorkspaceTransfer,
} from '@adpilot/contracts';
import type { SystemTx, Transactions, WorkspaceRow } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { HandoverRepository } from './handover.repository.ts';
import type { MembershipCache } from './membership-cache.ts';
import { accessIn } from './workspace-access.ts';
import type { WorkspacesRepository } from './workspaces.repository.ts';
import { recordIn, type People, type WorkspaceActivity } from './workspaces.service.ts';

/** Subscription's judgement of a handover (`PlanLimits.handoverRefusalIn`), with the receiver's plan row locked. */
export interface HandoverPlans {
  handoverRefusalIn(
    tx: SystemTx,
    workspaceId: string,
    holderId: string,
  ): Promise<{ limit: 'adAccounts' | 'activeRules' | 'seats'; plan: string; figure: number } | null>;
}

export interface HandoverDeps {
  transactions: Transactions;
  workspaces: WorkspacesRepository;
  repository: HandoverRepository;
  memberships: MembershipCache;
  activity: WorkspaceActivity;
  people: People;
  plans: HandoverPlans;
  now: () => Date;
}

const notMember = () => AppError.conflict(ACCOUNT_MESSAGES.receiverNotMember, 'WORKSPACE_RECEIVER_NOT_MEMBER');

/**
 * Handing a workspace, with who pays for it, to another member (issue 31): the owner offers, the receiver accepts,
 * and it moves under the receiver's plan if it fits, refused with the limit named otherwise. An account's deletion
 * hands its workspaces over at once (the person is leaving; the receiver was named by them).
 */
export class HandoverService {
  constructor(private readonly deps: HandoverDeps) {}

  /** POST /api/workspaces/:id/transfer (owner of a shared workspace; the receiver one of its members). */
  async offer(userId: string, workspaceId: string, toUserId: string): Promise<WorkspaceTransfer> {
    const { workspaces, repository } = this.deps;
    return this.deps.transactions.system('workspace handover offer', async (tx) => {
      const { workspace } = await accessIn(tx, workspaces, { workspaceId, userId, needed: 'owner', lock: true });
      if (workspace.personal) throw AppError.conflict(WORKSPACE_TRANSFER_MESSAGES.personal, 'WORKSPACE_PERSONAL');
      if (toUserId === userId) throw AppError.badRequest(WORKSPACE_TRANSFER_MESSAGES.self, 'VALIDATION_ERROR');
      if (!(await workspaces.roleOf(tx, workspace.id, toUserId))) throw notMember();
      const row = await repository.offer(tx, { workspaceId, fromUserId: userId, toUserId }, this.deps.now());
      const names = await this.namesIn(tx, [userId, toUserId]);
      await recordIn(this.deps.activity, tx, {
        workspaceId,
        actorId: userId,
        code: 'workspace_transfer_offered',
        params: { member: names.get(toUserId) ?? '' },
        description: `Offered the workspace to ${names.get(toUserId) ?? ''}`,
      });
      return {
        id: row.id,
        workspaceId,
        workspaceName: workspace.name,
        fromUserId: userId,
        fromName: names.get(userId) ?? '',
        toUserId,
        createdAt: row.createdAt.toISOString(),
      };
    });
  }

  /**
   * POST /api/workspaces/transfers/:id/accept (the receiver). The workspace's row is locked first, so an offer is
   * taken once and the members read stay true; the receiver's plan row is locked next (inside the plan's check), so
   * parallel handovers into one plan are judged one after the other and never pass a limit together.
   */
  async accept(userId: string, transferId: string): Promise<{ workspaceId: string }> {
    const { workspaces, repository } = this.deps;
    const moved = await this.deps.transactions.system('workspace handover', async (tx) => {
      const offered = await repository.openFor(tx, transferId, userId);
      if (!offered) throw AppError.notFound(WORKSPACE_TRANSFER_MESSAGES.unknown);
      const workspace = await workspaces.lock(tx, offered.workspaceId);
      // Read again under the lock: a parallel accept of the same offer finds it taken.
      const open = await repository.openFor(tx, transferId, userId);
      if (!workspace || !open) throw AppError.notFound(WORKSPACE_TRANSFER_MESSAGES.unknown);
      if ((await workspaces.roleOf(tx, workspace.id, open.fromUserId)) !== 'owner')
        throw AppError.notFound(WORKSPACE_TRANSFER_MESSAGES.unknown);
      await this.handOverIn(tx, workspace, open.fromUserId, userId, 'stays');
      await repository.accept(tx, transferId, this.deps.now());
      return { workspaceId: workspace.id, members: await workspaces.members(tx, workspace.id) };
    });
    for (const member of moved.members) this.deps.memberships.evict(member.userId);
    return { workspaceId: moved.workspaceId };
  }

  /** The open handovers offered to the person (My account). */
  async incoming(userId: string): Promise<WorkspaceTransfer[]> {
    return this.deps.transactions.system('workspace handovers', async (tx) => {
      const rows = await this.deps.repository.listOpen(tx, userId, 'to');
      const names = await this.namesIn(
        tx,
        rows.map((row) => row.fromUserId),
      );
      return rows.map((row) => ({
        ...row,
        fromName: names.get(row.fromUserId) ?? '',
        createdAt: row.createdAt.toISOString(),
      }));
    });
  }

  /** The person's workspaces, whether their plan covers each, and the other members (My account). */
  async accountWorkspaces(userId: string): Promise<AccountWorkspace[]> {
    return this.deps.transactions.system('account workspaces', async (tx) => {
      const rows = await this.deps.repository.membershipsOf(tx, userId);
      const result: AccountWorkspace[] = [];
      for (const row of rows) {
        const members = (await this.deps.workspaces.members(tx, row.id)).filter((m) => m.userId !== userId);
        const names = await this.namesIn(
          tx,
          members.map((m) => m.userId),
        );
        result.push({
          id: row.id,
          name: row.name,
          role: row.role,
          personal: row.personal,
          paidByYou: row.payerId === userId,
          members: members.map((m) => ({ userId: m.userId, name: names.get(m.userId) ?? '', role: m.role })),
        });
      }
      return result;
    });
  }

  /**
   * An account's deletion, in its unit of work: every shared workspace the person owns needs a fate (409 naming
   * none otherwise; a fate for a workspace they do not own is 409 too), each handed to the named member (under
   * their plan, if it fits) or deleted with its data. Returns the members whose memberships changed.
   */
  async settleDepartureIn(tx: SystemTx, userId: string, fates: readonly WorkspaceFate[]): Promise<string[]> {
    const { workspaces } = this.deps;
    const owned = (await this.deps.repository.membershipsOf(tx, userId)).filter(
      (row) => row.role === 'owner' && !row.personal,
    );
    const byId = new Map(fates.map((fate) => [fate.id, fate]));
    const ownedIds = new Set(owned.map((row) => row.id));
    if (fates.some((fate) => !ownedIds.has(fate.id)))
      throw AppError.conflict(ACCOUNT_MESSAGES.workspaceActionUnknown, 'ACCOUNT_WORKSPACE_UNDECIDED');
    const undecided = owned.filter((row) => !byId.has(row.id));
    if (undecided.length > 0)
      throw new AppError(
        'ACCOUNT_WORKSPACE_UNDECIDED',
        ACCOUNT_MESSAGES.workspaceActionMissing,
        409,
        undefined,
        undefined,
        {
          workspaces: undecided.map((row) => row.name).join(', '),
        },
      );
    const touched: string[] = [];
    for (const row of owned) {
      const fate = byId.get(row.id);
      const workspace = await workspaces.lock(tx, row.id);
      if (!fate || !workspace) continue;
      touched.push(...(await workspaces.members(tx, row.id)).map((m) => m.userId));
      if (fate.action === 'delete') await workspaces.delete(tx, row.id);
      else await this.handOverIn(tx, workspace, userId, fate.toUserId, 'leaves');
    }
    return touched;
  }

  /**
   * Moves a locked workspace from one owner to a member: refused unless the receiver is a member and it fits their
   * plan; the receiver becomes an owner and its payer, the giver an admin, or no member when they are leaving (an
   * account's deletion: their seat is not counted against the receiver's plan).
   */
  private async handOverIn(
    tx: SystemTx,
    workspace: WorkspaceRow,
    fromUserId: string,
    toUserId: string,
    giver: 'stays' | 'leaves',
  ) {
    const { workspaces } = this.deps;
    if (workspace.personal) throw AppError.conflict(WORKSPACE_TRANSFER_MESSAGES.personal, 'WORKSPACE_PERSONAL');
    if (toUserId === fromUserId || !(await workspaces.roleOf(tx, workspace.id, toUserId))) throw notMember();
    if (giver === 'leaves') await workspaces.removeMember(tx, workspace.id, fromUserId);
    const holderId = await workspaces.personalOf(tx, toUserId);
    if (!holderId) throw notMember();
    const refusal = await this.deps.plans.handoverRefusalIn(tx, workspace.id, holderId);
    if (refusal)
      throw new AppError(
        'WORKSPACE_TRANSFER_DOES_NOT_FIT',
        WORKSPACE_TRANSFER_MESSAGES.doesNotFit(refusal.limit, refusal.figure),
        409,
        undefined,
        undefined,
        { limit: refusal.figure, plan: refusal.plan, figure: refusal.limit },
      );
    await workspaces.setRole(tx, workspace.id, toUserId, 'owner');
    if (giver === 'stays') await workspaces.setRole(tx, workspace.id, fromUserId, 'admin');
    await workspaces.setPayer(tx, workspace.id, toUserId);
    const names = await this.namesIn(tx, [toUserId]);
    await recordIn(this.deps.activity, tx, {
      workspaceId: workspace.id,
      actorId: toUserId,
      code: 'workspace_transferred',
      params: { member: names.get(toUserId) ?? '' },
      description: `${names.get(toUserId) ?? ''} took the workspace over`,
    });
  }

  private async namesIn(tx: SystemTx, ids: string[]): Promise<Map<string, string>> {
    return new Map((await this.deps.people.profilesIn(tx, ids)).map((person) => [person.id, person.name]));
  }
}
