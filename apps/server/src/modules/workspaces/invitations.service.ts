import {
  INVITATION_RESENDS_PER_HOUR,
  INVITATION_TTL_DAYS,
  OUTBOUND_MAIL_MESSAGES,
  UNLIMITED,
  type Invitation,
  type InvitationInput,
  type SentInvitation,
  type InvitationPreview,
  type PlanId,
  type Workspace,
} from '@adpilot/contracts';
import type { SystemTx, Transactions, WorkspaceInvitationRow } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import type { OutboundMail } from '../outbound/index.ts';
import type { AttemptLimiter, LimitRule } from '../auth/index.ts';
import type { InvitationMailer, MailFrom } from './invitation-mailer.ts';
import { presentInvitation } from './invitations.presenter.ts';
import type { InvitationsRepository } from './invitations.repository.ts';
import { accessIn, roleNeeded } from './workspace-access.ts';
import type { WorkspacesRepository } from './workspaces.repository.ts';
import { recordIn, type People, type WorkspaceActivity } from './workspaces.service.ts';

/**
 * The plan covering a workspace, its seats (-1 unlimited) and the workspaces it covers, read in the workspaces
 * module's unit of work with the payer's plan locked until it ends (subscription's; ADR 0110).
 */
export interface SeatPlans {
  planOf(tx: SystemTx, workspaceId: string): Promise<{ plan: PlanId; seats: number; workspaceIds: string[] }>;
}

/** Who holds a seat in a plan's workspaces: members (by id, with their address) and pending invitations (ADR 0111). */
export interface SeatUse {
  /** Seat-taking members across the plan's workspaces, each person once: id → lower-cased address. */
  holders: Map<string, string>;
  /** Addresses with a pending seat-taking invitation who hold no seat yet. */
  reserved: Set<string>;
  /** Per workspace: its seat-taking members and pending invitations. */
  byWorkspace: Map<string, number>;
}

export interface InvitationsDeps {
  transactions: Transactions;
  repository: InvitationsRepository;
  workspaces: WorkspacesRepository;
  activity: WorkspaceActivity;
  people: People;
  plans: SeatPlans;
  limiter: Pick<AttemptLimiter, 'take'>;
  /** Outbound mail's policy: budgets, the first mail to an outside address, unsubscribe (ADR 0092). */
  outbound: Pick<OutboundMail, 'admit' | 'confirmIn'>;
  /** The invitation's mail: sent, or queued while the mail server refuses it (ADR 0098). */
  invitationMailer: Pick<InvitationMailer, 'send'>;
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

  /**
   * POST /api/workspaces/:id/invitations (admin or owner; an owner alone invites an owner). Once the caller may
   * invite the address, its mail is admitted by outbound mail's policy (a spent budget refuses the invitation before
   * it is made); the invitation is then made under the workspace's lock, and its mail sent, queued while the mail
   * server refuses it (ADR 0098), or withheld while the address has not answered the workspace's first mail (ADR 0092).
   */
  async invite(actorId: string, workspaceId: string, input: InvitationInput): Promise<SentInvitation> {
    const email = input.email.toLowerCase();
    const token = randomToken();
    const check = (tx: SystemTx) => this.checkInvite(tx, actorId, workspaceId, input.role, email);
    const checked = await this.deps.transactions.system('workspace invite check', check);
    const admission = await this.deps.outbound.admit({
      workspace: { id: workspaceId, name: checked.name },
      senderId: actorId,
      to: email,
      kind: 'invitation',
    });
    let made: { invitation: Invitation; mail: MailFrom };
    try {
      made = await this.deps.transactions.system('workspace invite', async (tx) => {
        const { workspace } = await check(tx);
        const now = this.deps.now();
        if (input.role !== 'viewer') await this.checkSeat(tx, workspaceId, { email }, now, 'reserve');
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
    } catch (error) {
      if (admission.action !== 'withhold') await admission.release();
      throw error;
    }
    return {
      ...made.invitation,
      mail: await this.deps.invitationMailer.send(admission, made.invitation, token, made.mail, actorId),
    };
  }

  /** Whether the caller may invite `email` as `role` now: their role, and the address not a member nor invited. */
  private async checkInvite(
    tx: SystemTx,
    actorId: string,
    workspaceId: string,
    invitedRole: InvitationInput['role'],
    email: string,
  ) {
    const { workspace, role } = await accessIn(tx, this.deps.workspaces, {
      workspaceId,
      userId: actorId,
      needed: 'admin',
      lock: true,
    });
    if (invitedRole === 'owner' && role !== 'owner') throw roleNeeded('owner');
    const members = await this.deps.workspaces.members(tx, workspaceId);
    const addresses = await this.deps.people.profilesIn(
      tx,
      members.map((m) => m.userId),
    );
    const known = addresses.some((person) => person.email.toLowerCase() === email);
    if (known || (await this.deps.repository.hasPendingFor(tx, workspaceId, email, this.deps.now()))) {
      throw AppError.conflict(INVITATION_MESSAGES.alreadyMember, 'WORKSPACE_ALREADY_MEMBER');
    }
    return { workspace, name: workspace.name };
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

  /**
   * DELETE /api/workspaces/:id/invitations/:invitationId (admin or owner; an owner alone withdraws an invitation to be
   * an owner, as an owner alone makes and re-sends one): the link stops working.
   */
  async revoke(actorId: string, workspaceId: string, invitationId: string): Promise<void> {
    await this.deps.transactions.system('workspace invitation revoke', async (tx) => {
      const { role } = await accessIn(tx, this.deps.workspaces, {
        workspaceId,
        userId: actorId,
        needed: 'admin',
        lock: true,
      });
      const current = await this.openInvitation(tx, workspaceId, invitationId);
      if (current.role === 'owner' && role !== 'owner') throw roleNeeded('owner');
      const revoked = await this.deps.repository.revoke(tx, workspaceId, invitationId, this.deps.now());
      if (!revoked) throw invitationNotFound();
    });
  }

  /**
   * POST /api/workspaces/:id/invitations/:invitationId/resend (admin or owner): a new link and a new week, the old
   * link dead. Counted per invitation (at most INVITATION_RESENDS_PER_HOUR an hour) once the caller may send it; an
   * invitation that had expired takes a seat again, so the seats are counted as for a new one.
   */
  async resend(actorId: string, workspaceId: string, invitationId: string): Promise<SentInvitation> {
    const open = (tx: SystemTx) => this.openInvitation(tx, workspaceId, invitationId);
    const checked = await this.deps.transactions.system('workspace invitation resend check', async (tx) => {
      const { workspace } = await accessIn(tx, this.deps.workspaces, { workspaceId, userId: actorId, needed: 'admin' });
      const invitation = await open(tx);
      return { name: workspace.name, email: invitation.email };
    });
    await this.deps.limiter.take(
      [INVITATION_LIMITS.resend],
      { account: `invitation:${invitationId}`, address: '' },
      INVITATION_MESSAGES.tooManyResends,
    );
    const token = randomToken();
    const admission = await this.deps.outbound.admit({
      workspace: { id: workspaceId, name: checked.name },
      senderId: actorId,
      to: checked.email,
      kind: 'invitation',
    });
    // A re-send is more mail to the same address: refused while it has not answered the first (ADR 0092).
    if (admission.action === 'withhold') {
      if (admission.outcome === 'unsubscribed')
        throw AppError.conflict(OUTBOUND_MAIL_MESSAGES.unsubscribed, 'MAIL_UNSUBSCRIBED');
      throw AppError.conflict(OUTBOUND_MAIL_MESSAGES.awaitingConfirmation, 'MAIL_AWAITING_CONFIRMATION');
    }
    let made: { invitation: Invitation; mail: MailFrom };
    try {
      made = await this.deps.transactions.system('workspace invitation resend', async (tx) => {
        const { workspace, role } = await accessIn(tx, this.deps.workspaces, {
          workspaceId,
          userId: actorId,
          needed: 'admin',
          lock: true,
        });
        const current = await open(tx);
        if (current.role === 'owner' && role !== 'owner') throw roleNeeded('owner');
        const now = this.deps.now();
        if (current.expiresAt.getTime() <= now.getTime() && current.role !== 'viewer') {
          await this.checkSeat(tx, workspaceId, { email: current.email }, now, 'reserve');
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
    } catch (error) {
      await admission.release();
      throw error;
    }
    return {
      ...made.invitation,
      mail: await this.deps.invitationMailer.send(admission, made.invitation, token, made.mail, actorId),
    };
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
      // Seats are counted again at acceptance (ADR 0111): invitations made before a downgrade, or accepted in
      // parallel across the plan's workspaces, never seat more people than the plan has seats. The refusal rolls
      // the invitation back: it stays pending for a later accept.
      if (invitation.role !== 'viewer') await this.checkSeat(tx, workspace.id, { email, userId }, now, 'accept');
      if (!(await this.deps.workspaces.addMember(tx, workspace.id, userId, invitation.role))) {
        throw AppError.conflict('You are already a member of this workspace', 'WORKSPACE_ALREADY_MEMBER');
      }
      // Accepting answers the workspace's first mail: its mail to this address is wanted (ADR 0092).
      await this.deps.outbound.confirmIn(tx, workspace.id, email);
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
   * Who holds a seat across `workspaceIds` at `now` (ADR 0111): editors, admins and owners, each person once however
   * many of the plan's workspaces they are in; viewers take none. In the caller's unit of work.
   */
  async seatUseIn(tx: SystemTx, workspaceIds: readonly string[], now: Date): Promise<SeatUse> {
    const members = await this.deps.workspaces.seatHolders(tx, workspaceIds);
    const invited = await this.deps.repository.pendingSeats(tx, workspaceIds, now);
    const people = await this.deps.people.profilesIn(tx, [...new Set(members.map((m) => m.userId))]);
    const holders = new Map(people.map((person) => [person.id, person.email.toLowerCase()]));
    const held = new Set(holders.values());
    const reserved = new Set(invited.map((row) => row.email.toLowerCase()).filter((email) => !held.has(email)));
    const byWorkspace = new Map<string, number>(workspaceIds.map((id) => [id, 0]));
    for (const row of [...members, ...invited])
      byWorkspace.set(row.workspaceId, (byWorkspace.get(row.workspaceId) ?? 0) + 1);
    return { holders, reserved, byWorkspace };
  }

  /**
   * Refuses a seat for `person` when the plan's seats are full (ADR 0111). `reserve` (an invitation, a role change)
   * counts the seat holders and the pending invitations; `accept` counts the seat holders only, the invitation
   * being accepted turning into one. A person who holds a seat in any of the plan's workspaces needs no other.
   * Read under the payer's plan lock (`planOf`), which every invitation, accept and role change takes after the
   * workspace row's, so parallel requests across the plan's workspaces cannot pass the limit.
   */
  async checkSeat(
    tx: SystemTx,
    workspaceId: string,
    person: { email: string; userId?: string },
    now: Date,
    mode: 'reserve' | 'accept',
  ): Promise<void> {
    const { plan, seats, workspaceIds } = await this.deps.plans.planOf(tx, workspaceId);
    if (seats === UNLIMITED) return;
    const { holders, reserved } = await this.seatUseIn(tx, workspaceIds, now);
    const email = person.email.toLowerCase();
    if ((person.userId && holders.has(person.userId)) || [...holders.values()].includes(email)) return;
    const taken = holders.size + (mode === 'reserve' ? [...reserved].filter((other) => other !== email).length : 0);
    if (taken + 1 > seats) {
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
}
