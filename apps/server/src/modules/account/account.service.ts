import {
  ACCOUNT_MESSAGES,
  type Account,
  type AccountSession,
  type ChangePassword,
  type DeleteAccount,
  type UpdateAccount,
  type WorkspaceTransfer,
} from '@adpilot/contracts';
import type { Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { AuthService } from '../auth/index.ts';
import type { NotificationsService } from '../notifications/index.ts';
import type { SubscriptionService } from '../subscription/index.ts';
import type { HandoverService, MembershipCache } from '../workspaces/index.ts';

export interface AccountDeps {
  transactions: Transactions;
  /** Auth: the person's row, password and sessions. */
  auth: Pick<
    AuthService,
    | 'me'
    | 'rename'
    | 'sessionsOf'
    | 'endOwnSession'
    | 'changePassword'
    | 'confirmPassword'
    | 'deleteUserIn'
    | 'forgetUser'
  >;
  /** Notifications: the language and time zone the digest and the mails follow. */
  notifications: Pick<NotificationsService, 'get' | 'update'>;
  /** Workspaces: the person's workspaces, handovers and what becomes of them when the account goes. */
  handover: Pick<HandoverService, 'accountWorkspaces' | 'incoming' | 'settleDepartureIn'>;
  memberships: Pick<MembershipCache, 'evict'>;
  /** Subscription: the plan the person pays for (their personal workspace holds it, ADR 0110). */
  subscription: Pick<SubscriptionService, 'current'>;
  /** The data export: queued as a job, downloaded once through the e-mailed link (account-export.ts). */
  exports: { request(userId: string): Promise<void>; claim(token: string): Promise<Buffer> };
}

/**
 * My account (issue 31): one person's own profile, sessions, workspaces and plan, and the account's deletion. It
 * owns no table: each part is asked of the module that holds it.
 */
export class AccountService {
  constructor(private readonly deps: AccountDeps) {}

  /** GET /api/account. */
  async get(userId: string): Promise<Account> {
    const { auth, notifications, handover, subscription } = this.deps;
    const user = await auth.me(userId);
    const settings = await notifications.get(userId);
    const workspaces = await handover.accountWorkspaces(userId);
    const personal = workspaces.find((w) => w.personal && w.role === 'owner');
    if (!personal) throw AppError.unauthorized('User no longer exists');
    const current = await subscription.current({ workspaceId: personal.id, userId });
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: settings.emailVerified,
      language: settings.language,
      timeZone: settings.timeZone,
      plan: { id: current.plan, workspaces: current.workspaces.length },
      workspaces,
    };
  }

  /** PATCH /api/account: the name is auth's; the language and time zone are the notifier's (the digest follows). */
  async update(userId: string, body: UpdateAccount): Promise<Account> {
    if (body.name !== undefined) await this.deps.auth.rename(userId, body.name);
    if (body.language !== undefined || body.timeZone !== undefined)
      await this.deps.notifications.update(userId, {
        ...(body.language !== undefined ? { language: body.language } : {}),
        ...(body.timeZone !== undefined ? { timeZone: body.timeZone } : {}),
      });
    return this.get(userId);
  }

  /** POST /api/account/export: the ZIP is prepared by a job and its link mailed. */
  requestExport(userId: string): Promise<void> {
    return this.deps.exports.request(userId);
  }

  /** GET /api/account/export/:token: the ZIP, once. */
  downloadExport(token: string): Promise<Buffer> {
    return this.deps.exports.claim(token);
  }

  changePassword(userId: string, sessionId: string, body: ChangePassword): Promise<void> {
    return this.deps.auth.changePassword(userId, sessionId, body);
  }

  sessions(userId: string, sessionId: string): Promise<AccountSession[]> {
    return this.deps.auth.sessionsOf(userId, sessionId);
  }

  endSession(userId: string, sessionId: string): Promise<void> {
    return this.deps.auth.endOwnSession(userId, sessionId);
  }

  handovers(userId: string): Promise<WorkspaceTransfer[]> {
    return this.deps.handover.incoming(userId);
  }

  /**
   * DELETE /api/account: the password asked, then in one unit of work every owned shared workspace handed over or
   * deleted as the person said, and the person's row deleted (their sessions, personal workspace with its ad
   * accounts and sealed Meta tokens, and memberships with it; activity keeps its entries with no actor). The
   * address may register again at once.
   */
  async delete(userId: string, body: DeleteAccount): Promise<{ message: string }> {
    const { auth, handover } = this.deps;
    await auth.confirmPassword(userId, body.password);
    const touched = await this.deps.transactions.system('account deletion', async (tx) => {
      const members = await handover.settleDepartureIn(tx, userId, body.workspaces);
      await auth.deleteUserIn(tx, userId);
      return members;
    });
    auth.forgetUser(userId);
    for (const member of new Set([...touched, userId])) this.deps.memberships.evict(member);
    return { message: ACCOUNT_MESSAGES.accountDeleted };
  }
}
