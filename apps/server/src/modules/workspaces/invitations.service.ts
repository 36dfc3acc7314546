import {
  INVITATION_RESENDS_PER_HOUR,
  INVITATION_TTL_DAYS,
  UNLIMITED,
  type Invitation,
  type InvitationInput,
  type InvitationPreview,
  type PlanId,
  type Workspace,
} from '@adpilot/contracts';
import type { SystemTx, Transactions, WorkspaceInvitationRow } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import type { Mailer } from '../../providers/mail/mailer.ts';
import type { AttemptLimiter, LimitRule } from '../auth/attempt-limiter.ts';
import { invitationMail } from './invitation-mail.ts';
import { presentInvitation } from './invitations.presenter.ts';
import type { InvitationsRepository } from './invitations.repository.ts';
import { accessIn, roleNeeded } from './workspace-access.ts';
import type { WorkspacesRepository } from './workspaces.repository.ts';
import { recordIn, type People, type WorkspaceActivity } from './workspaces.service.ts';

/** A workspace's plan and its seats (-1 unlimited), read in the workspaces module's unit of work (subscription's). */
export interface SeatPlans {
  planOf(tx: SystemTx, workspaceId: string): Promise<{ plan: PlanId; seats: number }>;
}

export interface InvitationsDeps {
  transactions: Transactions;
  repository: InvitationsRepository;
  workspaces: WorkspacesRepository;
  activity: WorkspaceActivity;
  people: People;
  plans: SeatPlans;
  limiter: Pick<AttemptLimiter, 'take'>;
  mailer: Mailer;
  publicUrl: string;
  now: () => Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Re-sending is counted per invitation; the invitation page's look-ups per address, like any token guess. */
export const INVITATION_LIMITS = {
  resend: { name: 'invite:resend', scope: 'account', max: INVITATION_RESENDS_PER_HOUR, windowSeconds: 60 * 60 },
  preview: { name: 'invite:preview', scope: 'address', max: 60, windowSeconds: 15 * 60 },
} satisfies Record<string, LimitRule>;

export const INVITATION_MESSAGES = {
  seatLimit:
    'Your plan has no seat left for another member. Remove a member or a pending invitation, or upgrade your plan on the Subscription page.',
  alreadyMember: 'This address is already a member of the workspace or has a pending invitation',
  notFound: 'Invitation not found',
  used: 'This invitation has already been used',
  revoked: 'This invitation was withdrawn',
  expired: 'This invitation has expired: ask for a new one',
  emailMismatch: 'This invitation is for another e-mail address: sign in with the address it was sent to',
  tooManyResends: 'This invitation was sent too many times this hour. Please try again later.',
  tooManyLookups: 'Too many invitation look-ups. Please try again later.',
} as const;

const invitationNotFound = () => AppError.notFound(INVITATION_MESSAGES.notFound);

/** Why a link's invitation cannot be used at `now`, or null while it is pending. */
function refusalOf(invitation: WorkspaceInvitationRow, now: Date): AppError | null {
  if (invitation.acceptedAt) return AppError.conflict(INVITATION_MESSAGES.used, 'INVITATION_USED');
  if (invitation.revokedAt) return AppError.conflict(INVITATION_MESSAGES.revoked, 'INVITATION_REVOKED');
  if (invitation.expiresAt.getTime() <= now.getTime())
    return AppError.conflict(INVITATION_MESSAGES.expired, 'INVITATION_EXPIRED');
  return null;
}

/**
 * Invitations into a workspace (ADR 0071): made and re-sent by its admins within the plan's seats, counted under a
 * lock on the workspace row; accepted once, by the invited address, in one conditional update.
 */
export class InvitationsService {
  constructor(private readonly deps: InvitationsDeps) {}

  /** POST /api/workspaces/:id/invitations (admin or owner; an owner alone invites an owner). */
  async invite(actorId: string, workspaceId: string, input: InvitationInput): Promise<Invitation> {
    const email = input.email.toLowerCase();
    const token = randomToken();
    const { invitation, mail } = await this.deps.transactions.system('workspace invite', async (tx) => {
      const { workspace, role } = await accessIn(tx, this.deps.workspaces, {
        workspaceId,
        userId: actorId,
        needed: 'admin',
        lock: true,
      });
      if (input.role === 'owner' && role !== 'owner') throw roleNeeded('owner');
      const now = this.deps.now();
      const members = await this.deps.workspaces.members(tx, workspaceId);
      const addresses = await this.deps.people.profilesIn(
        tx,
        members.map((m) => m.userId),
      );
      const known = addresses.some((person) => person.email.toLowerCase() === email);
      if (known || (await this.deps.repository.hasPendingFor(tx, workspaceId, email, now))) {
        throw AppError.conflict(INVITATION_MESSAGES.alreadyMember, 'WORKSPACE_ALREADY_MEMBER');
      }
      await this.checkSeat(tx, workspaceId, members.length, now);
      const invitation = await this.deps.repository.insert(tx, {
        workspaceId,
        email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedBy: actorId,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS),
      });
      await recordIn(this.deps.activity, tx, {
        workspaceId,
        actorId,
        code: 'workspace_member_invited',
        params: { email, role: input.role },
        description: `Invited ${email} as ${input.role}`,
      });
      const inviter = await this.inviterName(tx, actorId);
      return { invitation: presentInvitation(invitation, inviter), mail: { workspace, inviter } };
    });
    await this.send(invitation, token, mail);
    return invitation;
  }

  /** GET /api/workspaces/:id/invitations (admin or owner): the pending ones. */
  async list(actorId: string, workspaceId: string): Promise<Invitation[]> {
    return this.deps.transactions.system('workspace invitations', async (tx) => {
      await accessIn(tx, this.deps.workspaces, { workspaceId, userId: actorId, needed: 'admin' });
      const rows = await this.deps.repository.listPending(tx, workspaceId, this.deps.now());
      const inviters = new Set(rows.flatMap((row) => (row.invitedBy ? [row.invitedBy] : [])));
      const names = new Map((await this.deps.people.profilesIn(tx, [...inviters])).map((p) => [p.id, p.name]));
      return rows.map((row) => presentInvitation(row, row.invitedBy ? (names.get(row.invitedBy) ?? null) : null));
    });
  }

  /** DELETE /api/workspaces/:id/invitations/:invitationId (admin or owner): the link stops working. */
  async revoke(actorId: string, workspaceId: string, invitationId: string): Promise<void> {
    await this.deps.transactions.system('workspace invitation revoke', async (tx) => {
      await accessIn(tx, this.deps.workspaces, { workspaceId, userId: actorId, needed: 'admin', lock: true });
      const revoked = await this.deps.repository.revoke(tx, workspaceId, invitationId, this.deps.now());
      if (!revoked) throw invitationNotFound();
    });
  }

  /**
   * POST /api/workspaces/:id/invitations/:invitationId/resend (admin or owner): a new link and a new week, the old
   * link dead. Counted per invitation (at most INVITATION_RESENDS_PER_HOUR an hour) once the caller may send it; an
   * invitation that had expired takes a seat again, so the seats are counted as for a new one.
   */
  async resend(actorId: string, workspaceId: string, invitationId: string): Promise<Invitation> {
    const open = (tx: SystemTx) => this.openInvitation(tx, workspaceId, invitationId);
    await this.deps.transactions.system('workspace invitation resend check', async (tx) => {
      await accessIn(tx, this.deps.workspaces, { workspaceId, userId: actorId, needed: 'admin' });
      await open(tx);
    });
    await this.deps.limiter.take(
      [INVITATION_LIMITS.resend],
      { account: `invitation:${invitationId}`, address: '' },
      INVITATION_MESSAGES.tooManyResends,
    );
    const token = randomToken();
    const { invitation, mail } = await this.deps.transactions.system('workspace invitation resend', async (tx) => {
      const { workspace, role } = await accessIn(tx, this.deps.workspaces, {
        workspaceId,
        userId: actorId,
        needed: 'admin',
        lock: true,
      });
      const current = await open(tx);
      if (current.role === 'owner' && role !== 'owner') throw roleNeeded('owner');
      const now = this.deps.now();
      if (current.expiresAt.getTime() <= now.getTime()) {
        await this.checkSeat(tx, workspaceId, await this.deps.workspaces.countMembers(tx, workspaceId), now);
      }
      const renewed = await this.deps.repository.renew(
        tx,
        current.id,
        hashToken(token),
        new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS),
      );
      if (!renewed) throw invitationNotFound();
      const inviter = await this.inviterName(tx, actorId);
      const originalInviter = renewed.invitedBy ? await this.inviterName(tx, renewed.invitedBy) : null;
      return { invitation: presentInvitation(renewed, originalInviter), mail: { workspace, inviter } };
    });
    await this.send(invitation, token, mail);
    return invitation;
  }

  /** GET /api/invitations/preview?token=…: what the invitation page shows, signed in or not. */
  async preview(token: string, ip: string): Promise<InvitationPreview> {
    await this.deps.limiter.take(
      [INVITATION_LIMITS.preview],
      { account: '', address: ip },
      INVITATION_MESSAGES.tooManyLookups,
    );
    return this.deps.transactions.system('invitation preview', async (tx) => {
      const invitation = await this.deps.repository.byTokenHash(tx, hashToken(token));
      if (!invitation) throw invitationNotFound();
      const refusal = refusalOf(invitation, this.deps.now());
      if (refusal) throw refusal;
      return {
        workspaceName: invitation.workspaceName,
        personal: invitation.personal,
        role: invitation.role,
        email: invitation.email,
        invitedBy: invitation.invitedBy ? await this.inviterName(tx, invitation.invitedBy) : null,
        expiresAt: invitation.expiresAt.toISOString(),
      };
    });
  }

  /**
   * POST /api/invitations/accept: the signed-in user joins the workspace, when the invitation is pending and for
   * their address. Under the workspace's lock, one conditional update takes the invitation and the membership is
   * added in the same unit of work: of two accepts at once, one joins and the other is told it was used.
   */
  async accept(userId: string, token: string): Promise<Workspace> {
    const tokenHash = hashToken(token);
    return this.deps.transactions.system('invitation accept', async (tx) => {
      const found = await this.deps.repository.byTokenHash(tx, tokenHash);
      if (!found) throw invitationNotFound();
      const workspace = await this.deps.workspaces.lock(tx, found.workspaceId);
      if (!workspace) throw invitationNotFound();
      const now = this.deps.now();
      const [user] = await this.deps.people.profilesIn(tx, [userId]);
      if (!user) throw AppError.unauthorized('User no longer exists');
      const email = user.email.toLowerCase();
      const invitation = await this.deps.repository.accept(tx, tokenHash, email, userId, now);
      if (!invitation) {
        const current = await this.deps.repository.byTokenHash(tx, tokenHash);
        const refusal = current ? refusalOf(current, now) : invitationNotFound();
        if (refusal) throw refusal;
        throw AppError.conflict(INVITATION_MESSAGES.emailMismatch, 'INVITATION_EMAIL_MISMATCH');
      }
      if (!(await this.deps.workspaces.addMember(tx, workspace.id, userId, invitation.role))) {
        throw AppError.conflict('You are already a member of this workspace', 'WORKSPACE_ALREADY_MEMBER');
      }
      await recordIn(this.deps.activity, tx, {
        workspaceId: workspace.id,
        actorId: userId,
        code: 'workspace_invitation_accepted',
        params: { member: user.name, role: invitation.role },
        description: `${user.name} joined the workspace as ${invitation.role}`,
        level: 'success',
      });
      return { id: workspace.id, name: workspace.name, role: invitation.role, personal: workspace.personal };
    });
  }

  /**
   * Refuses one more seat when members plus pending invitations already fill the plan's: read under the workspace
   * row's lock, which every invitation and accept takes first, so parallel invitations cannot pass the limit.
   */
  private async checkSeat(tx: SystemTx, workspaceId: string, members: number, now: Date): Promise<void> {
    const { plan, seats } = await this.deps.plans.planOf(tx, workspaceId);
    if (seats === UNLIMITED) return;
    const pending = await this.deps.repository.countPending(tx, workspaceId, now);
    if (members + pending + 1 > seats) {
      throw new AppError('SEAT_LIMIT_REACHED', INVITATION_MESSAGES.seatLimit, 403, undefined, undefined, {
        plan,
        limit: seats,
      });
    }
  }

  /** An invitation of the workspace neither accepted nor revoked (an expired one may be sent again). */
  private async openInvitation(
    tx: SystemTx,
    workspaceId: string,
    invitationId: string,
  ): Promise<WorkspaceInvitationRow> {
    const invitation = await this.deps.repository.find(tx, workspaceId, invitationId);
    if (!invitation || invitation.acceptedAt || invitation.revokedAt) throw invitationNotFound();
    return invitation;
  }

  private async inviterName(tx: SystemTx, userId: string): Promise<string | null> {
    const [person] = await this.deps.people.profilesIn(tx, [userId]);
    return person?.name ?? null;
  }

  /** The invitation's mail with its link; the token exists nowhere else (only its hash is stored). */
  private async send(
    invitation: Invitation,
    token: string,
    from: { workspace: { name: string; personal: boolean }; inviter: string | null },
  ): Promise<void> {
    const link = `${this.deps.publicUrl}/invitations/accept?token=${encodeURIComponent(token)}`;
    const mail = invitationMail({
      workspaceName: from.workspace.name,
      personal: from.workspace.personal,
      inviterName: from.inviter ?? 'A member',
      role: invitation.role,
      link,
    });
    await this.deps.mailer.send({ to: invitation.email, expiresAt: new Date(invitation.expiresAt), ...mail });
  }
}
