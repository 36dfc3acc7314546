import type { Workspace } from '@adpilot/contracts';
import type { SystemTx, Transactions } from '@adpilot/db';
import type { Membership, MembershipCache } from './membership-cache.ts';
import type { WorkspacesRepository } from './workspaces.repository.ts';

export interface WorkspacesDeps {
  transactions: Transactions;
  repository: WorkspacesRepository;
  memberships: MembershipCache;
}

/** Workspaces and their members (ADR 0070, first step: the personal workspace and the list). */
export class WorkspacesService {
  constructor(private readonly deps: WorkspacesDeps) {}

  /**
   * Makes a new user's personal workspace with them as owner, in the unit of work that makes the user (sign-up),
   * so there is never a user without one. Returns the workspace's id.
   */
  createPersonal(tx: SystemTx, owner: { id: string; name: string }): Promise<string> {
    return this.deps.repository.createPersonal(tx, owner);
  }

  /** GET /api/workspaces: the signed-in user's workspaces and their role in each. */
  async list(userId: string): Promise<Workspace[]> {
    return (await this.memberships(userId)).map(({ id, name, role, personal }) => ({ id, name, role, personal }));
  }

  private memberships(userId: string) {
    return this.deps.transactions.user(userId, (tx) => this.deps.repository.listOfMember(tx));
  }

  /**
   * The user's membership in `workspaceId`, or in their personal workspace when absent; null when they are not a
   * member (the request's current workspace, through the membership cache).
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

  /** Whether a workspace with this id exists (a Stripe event naming one of ours). */
  existsIn(tx: SystemTx, id: string): Promise<boolean> {
    return this.deps.repository.exists(tx, id);
  }

  /** The owners of a workspace (who hears about its bill). */
  ownerIdsIn(tx: SystemTx, id: string): Promise<string[]> {
    return this.deps.repository.ownerIds(tx, id);
  }
}
