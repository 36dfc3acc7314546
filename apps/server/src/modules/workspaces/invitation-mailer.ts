import type { Invitation, InvitationMailState } from '@adpilot/contracts';
import type { Transactions } from '@adpilot/db';
import { z } from 'zod';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import type { Admission, OutboundMail } from '../outbound/index.ts';
import { invitationMail } from './invitation-mail.ts';
import type { InvitationsRepository } from './invitations.repository.ts';
import type { WorkspacesRepository } from './workspaces.repository.ts';
import type { People } from './workspaces.service.ts';

/** The job that sends an invitation's mail the mail server refused when it was made or re-sent (ADR 0098). */
export const INVITATION_MAIL_JOB = 'workspace-invitation-mail';

/**
 * A queued invitation mail: which invitation, who sent it, and the hash of the link it was made with. The token
 * itself is nowhere: the job makes a new link when it sends, so no live link waits in the job table.
 */
export const queuedInvitationMailSchema = z.object({
  workspaceId: z.uuid(),
  invitationId: z.uuid(),
  senderId: z.uuid(),
  tokenHash: z.string().min(1).max(200),
});
export type QueuedInvitationMail = z.infer<typeof queuedInvitationMailSchema>;

export interface InvitationMailerDeps {
  transactions: Transactions;
  repository: InvitationsRepository;
  workspaces: WorkspacesRepository;
  people: People;
  outbound: Pick<OutboundMail, 'admit' | 'deliver'>;
  queue: Pick<JobQueue, 'send'>;
  publicUrl: string;
  now: () => Date;
}

/** Whose workspace the mail names, and who asks. */
export type MailFrom = { workspace: { name: string; personal: boolean }; inviter: string | null };

/**
 * An invitation's mail (ADR 0071, 0092, 0098): sent at once when the mail server takes it; when it refuses, the mail
 * is queued and `workspace-invitation-mail` tries it again, so inviting neither fails nor loses the mail. The job
 * sends it at most once: it first moves the invitation from the link it was queued with to a new one in one
 * conditional update, which only one attempt can win and which a re-send, an accept or a withdrawal makes fail.
 */
export class InvitationMailer {
  constructor(private readonly deps: InvitationMailerDeps) {}

  /**
   * The mail with its link, as its admission allows; the token exists nowhere else (only its hash is stored). A
   * mail server's refusal queues it (`queued`): the admission was given back, and the job asks again.
   */
  async send(
    admission: Admission,
    invitation: Invitation,
    token: string,
    from: MailFrom,
    senderId: string,
  ): Promise<InvitationMailState> {
    if (admission.action === 'withhold')
      return admission.outcome === 'unsubscribed' ? 'withheld_unsubscribed' : 'withheld_unconfirmed';
    try {
      await this.deliver(admission, invitation, token, from);
      return 'sent';
    } catch {
      const job: QueuedInvitationMail = {
        workspaceId: admission.request.workspace.id,
        invitationId: invitation.id,
        senderId,
        tokenHash: hashToken(token),
      };
      // One job per link: a re-send's mail queued beside an older one is not dropped; the older finds nothing to do.
      await this.deps.queue.send(INVITATION_MAIL_JOB, job, { singletonKey: `${invitation.id}:${job.tokenHash}` });
      return 'queued';
    }
  }

  /**
   * The job: the invitation's mail, when it is still pending with the link it was queued with (else it was
   * accepted, withdrawn, expired or sent again since, and there is nothing to send). Throws, for the queue to try
   * again, when the mail server refuses once more or a day's budget is spent.
   */
  async sendQueued(job: QueuedInvitationMail): Promise<void> {
    const found = await this.deps.transactions.system('invitation mail: read', async (tx) => {
      const invitation = await this.deps.repository.find(tx, job.workspaceId, job.invitationId);
      const now = this.deps.now();
      const pending =
        invitation &&
        !invitation.acceptedAt &&
        !invitation.revokedAt &&
        invitation.expiresAt.getTime() > now.getTime() &&
        invitation.tokenHash === job.tokenHash;
      if (!pending) return null;
      const workspace = await this.deps.workspaces.find(tx, job.workspaceId);
      if (!workspace) return null;
      const [sender] = await this.deps.people.profilesIn(tx, [job.senderId]);
      return { invitation, workspace, inviter: sender?.name ?? null };
    });
    if (!found) return;
    const { invitation, workspace } = found;
    const admission = await this.deps.outbound.admit({
      workspace: { id: workspace.id, name: workspace.name },
      senderId: job.senderId,
      to: invitation.email,
      kind: 'invitation',
    });
    if (admission.action === 'withhold') return;
    const token = randomToken();
    const claimed = await this.deps.transactions.system('invitation mail: claim', (tx) =>
      this.deps.repository.moveToken(tx, invitation.id, job.tokenHash, hashToken(token), this.deps.now()),
    );
    if (!claimed) {
      await admission.release();
      return;
    }
    const from = { workspace, inviter: found.inviter };
    try {
      await this.deliver(
        admission,
        { role: invitation.role, expiresAt: invitation.expiresAt.toISOString() },
        token,
        from,
      );
    } catch (error) {
      // Not sent: the link it was queued with is put back, so the next attempt may claim it.
      await this.deps.transactions.system('invitation mail: unclaim', (tx) =>
        this.deps.repository.moveToken(tx, invitation.id, hashToken(token), job.tokenHash, this.deps.now()),
      );
      throw error;
    }
  }

  /** Every name in the mail is a chosen one and is neutralised by the mail's text. */
  private async deliver(
    admission: Extract<Admission, { action: 'send' | 'first' }>,
    invitation: Pick<Invitation, 'role' | 'expiresAt'>,
    token: string,
    from: MailFrom,
  ): Promise<void> {
    const link = `${this.deps.publicUrl}/invitations/accept?token=${encodeURIComponent(token)}`;
    const mail = invitationMail({
      workspaceName: from.workspace.name,
      personal: from.workspace.personal,
      inviterName: from.inviter ?? 'A member',
      role: invitation.role,
      link,
    });
    await this.deps.outbound.deliver(admission, { ...mail, expiresAt: new Date(invitation.expiresAt) });
  }
}
