import type { AdminWorkspace, OutboxMail, PlanId } from '@adpilot/contracts';
import type { Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import type { AuthService } from '../auth/index.ts';
import type { SubscriptionService } from '../subscription/index.ts';
import type { WorkspacesService } from '../workspaces/index.ts';
import { presentAdminWorkspace, presentOutboxMail } from './admin.presenter.ts';
import type { AdminRepository } from './admin.repository.ts';

export interface AdminServiceDeps {
  transactions: Transactions;
  repository: AdminRepository;
  secretBox: SecretBox;
  /** The public APIs of the modules whose data the Users page shows (ADR 0066). */
  users: Pick<AuthService, 'me' | 'profilesIn'>;
  workspaces: Pick<WorkspacesService, 'allIn' | 'existsIn'>;
  plans: Pick<SubscriptionService, 'plansOfIn' | 'assignPlan'>;
}

/** The instance administrator's operator views; the routes let only the admin in. */
export class AdminService {
  constructor(private readonly deps: AdminServiceDeps) {}

  async recentOutboxMail(limit: number): Promise<OutboxMail[]> {
    const { rows, attachments } = await this.deps.transactions.system('admin: outbox', async (tx) => {
      const rows = await this.deps.repository.recentOutboxMail(tx, limit);
      const attachments = await this.deps.repository.outboxAttachments(
        tx,
        rows.map((row) => row.id),
      );
      return { rows, attachments };
    });
    const open = (sealed: string) => this.deps.secretBox.decrypt(sealed);
    return rows.map((row) =>
      presentOutboxMail(
        row,
        attachments.filter((file) => file.mailId === row.id),
        open,
      ),
    );
  }

  /** Every workspace with its owners and plan: the Users page (ADR 0087). */
  async workspaces(): Promise<AdminWorkspace[]> {
    return this.deps.transactions.system('admin: workspaces', async (tx) => {
      const rows = await this.deps.workspaces.allIn(tx);
      const ownerIds = [...new Set(rows.flatMap((row) => row.ownerIds))];
      const profiles = new Map((await this.deps.users.profilesIn(tx, ownerIds)).map((p) => [p.id, p]));
      const plans = await this.deps.plans.plansOfIn(
        tx,
        rows.map((row) => row.id),
      );
      return rows.map((row) => presentAdminWorkspace(row, profiles, plans.get(row.id) ?? 'free'));
    });
  }

  /** Sets a workspace's plan, signed by the administrator in the workspace's log (local billing only, ADR 0087). */
  async assignPlan(adminId: string, workspaceId: string, planId: PlanId): Promise<AdminWorkspace> {
    const exists = await this.deps.transactions.system('admin: workspace exists', (tx) =>
      this.deps.workspaces.existsIn(tx, workspaceId),
    );
    if (!exists) throw AppError.notFound('Workspace not found');
    const admin = await this.deps.users.me(adminId);
    await this.deps.plans.assignPlan({ id: admin.id, name: admin.name }, workspaceId, planId);
    const assigned = (await this.workspaces()).find((workspace) => workspace.id === workspaceId);
    if (!assigned) throw AppError.notFound('Workspace not found');
    return assigned;
  }
}
