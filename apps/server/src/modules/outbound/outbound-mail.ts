import {
  MAIL_CONFIRMATIONS_PER_RECIPIENT_PER_DAY,
  MAIL_PER_RECIPIENT_PER_DAY,
  MAIL_PER_SENDER_PER_DAY,
  MAIL_PER_WORKSPACE_PER_DAY,
  OUTBOUND_MAIL_MESSAGES,
  type MailConsentState,
  type MailLimitScope,
  type MailLinkPreview,
  type RecipientOutcome,
} from '@adpilot/contracts';
import type { SystemTx, Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { Mail, Mailer } from '../../providers/mail/mailer.ts';
import type { AttemptLimiter, LimitRule } from '../auth/index.ts';
import type { MailLinks } from './mail-links.ts';
import type { MailRecipientsRepository } from './mail-recipients.repository.ts';
import { confirmLine, reportConfirmationMail, unsubscribeFooter } from './outbound-mail-text.ts';

/** Each day's budget (tests make them small). */
export interface MailLimits {
  perSender: number;
  perWorkspace: number;
  perRecipient: number;
  confirmationsPerRecipient: number;
}

export const DEFAULT_MAIL_LIMITS: MailLimits = {
  perSender: MAIL_PER_SENDER_PER_DAY,
  perWorkspace: MAIL_PER_WORKSPACE_PER_DAY,
  perRecipient: MAIL_PER_RECIPIENT_PER_DAY,
  confirmationsPerRecipient: MAIL_CONFIRMATIONS_PER_RECIPIENT_PER_DAY,
};

const DAY_SECONDS = 24 * 60 * 60;

/** Who is inside a workspace: its members whose address a confirmation link proved (ADR 0092). */
export interface Insiders {
  verifiedMemberEmailsIn(tx: SystemTx, workspaceId: string): Promise<string[]>;
  workspaceNameIn(tx: SystemTx, workspaceId: string): Promise<string | null>;
}

export interface OutboundMailDeps {
  transactions: Transactions;
  repository: MailRecipientsRepository;
  insiders: Insiders;
  limiter: Pick<AttemptLimiter, 'take' | 'refund'>;
  mailer: Mailer;
  links: MailLinks;
  limits?: Partial<MailLimits>;
  now: () => Date;
}

/** One mail a member's action (or a workspace's clock) sends to someone. */
export interface OutboundRequest {
  workspace: { id: string; name: string };
  /** The person whose action sends it; null for the workspace's own clock (a due report). */
  senderId: string | null;
  to: string;
  kind: 'report' | 'invitation';
}

export interface OutboundContent {
  subject: string;
  text: string;
  expiresAt: Date;
  attachments?: Mail['attachments'];
}

/** What may go to an address now: the mail, the first mail asking to confirm, or nothing (and why). */
export type Admission =
  | { action: 'send' | 'first'; request: OutboundRequest; email: string; release(): Promise<void> }
  | { action: 'withhold'; outcome: 'awaiting_confirmation' | 'unsubscribed' };

/**
 * The policy every mail to someone else goes through (ADR 0092). An address is inside a workspace when it is a
 * member's proved address; any other is outside: the first mail the workspace sends it asks it to confirm (an
 * invitation is that first mail, with the question added), and nothing more goes until it confirms, accepts an
 * invitation or unsubscribes. Each mail sent is first counted, atomically in the database's counters, against the
 * sender's, the workspace's and the recipient's day (a first mail also against the recipient's first mails of the
 * day); the first budget used up refuses it with MAIL_LIMIT_REACHED and gives back what it had counted. Every mail
 * carries List-Unsubscribe (one click, RFC 8058) and an unsubscribe link in its body.
 */
export class OutboundMail {
  private readonly limits: MailLimits;

  constructor(private readonly deps: OutboundMailDeps) {
    this.limits = { ...DEFAULT_MAIL_LIMITS, ...deps.limits };
  }

  /** Decides what may go to the address and counts it; throws MAIL_LIMIT_REACHED (429) when a budget is spent. */
  async admit(request: OutboundRequest): Promise<Admission> {
    const email = request.to.toLowerCase();
    const workspaceId = request.workspace.id;
    const decision = await this.deps.transactions.system('outbound mail: admit', async (tx) => {
      const row = await this.deps.repository.find(tx, workspaceId, email);
      if (row?.state === 'unsubscribed') return 'unsubscribed' as const;
      if (row?.state === 'confirmed') return 'send' as const;
      const insiders = await this.deps.insiders.verifiedMemberEmailsIn(tx, workspaceId);
      if (insiders.includes(email)) return 'send' as const;
      if (row) return 'awaiting_confirmation' as const;
      return (await this.deps.repository.claimFirst(tx, workspaceId, email, this.deps.now()))
        ? ('first' as const)
        : ('awaiting_confirmation' as const);
    });
    if (decision === 'unsubscribed' || decision === 'awaiting_confirmation') {
      return { action: 'withhold', outcome: decision };
    }
    const rules = this.rulesFor(request, email, decision === 'first');
    const taken: (typeof rules)[number][] = [];
    const refund = async () => {
      for (const rule of taken.reverse()) await this.deps.limiter.refund([rule.rule], rule.who);
      taken.length = 0;
    };
    const unclaim = async () => {
      if (decision === 'first')
        await this.deps.transactions.system('outbound mail: release', (tx) =>
          this.deps.repository.releaseFirst(tx, workspaceId, email),
        );
    };
    for (const rule of rules) {
      try {
        await this.deps.limiter.take([rule.rule], rule.who, OUTBOUND_MAIL_MESSAGES.limit[rule.scope]);
      } catch (error) {
        await refund();
        await unclaim();
        if (error instanceof AppError && error.statusCode === 429) {
          throw new AppError(
            'MAIL_LIMIT_REACHED',
            OUTBOUND_MAIL_MESSAGES.limit[rule.scope],
            429,
            undefined,
            error.headers,
            { scope: rule.scope, limit: rule.rule.max },
          );
        }
        throw error;
      }
      taken.push(rule);
    }
    return {
      action: decision,
      request,
      email,
      release: async () => {
        await refund();
        await unclaim();
      },
    };
  }

  /**
   * Sends an admitted mail: the content, or for a report's first mail the question instead of it; the
   * unsubscribe footer and headers added. Throws what the mailer throws, the admission given back first.
   */
  async deliver(
    admission: Extract<Admission, { action: 'send' | 'first' }>,
    content: OutboundContent,
  ): Promise<'sent' | 'confirmation_sent'> {
    const { request, email } = admission;
    const workspaceId = request.workspace.id;
    const links = this.deps.links;
    const unsubscribe = links.page({ purpose: 'unsubscribe', workspaceId, email });
    const confirm = links.page({ purpose: 'confirm', workspaceId, email });
    const first = admission.action === 'first';
    let mail: Mail;
    if (first && request.kind === 'report') {
      const question = reportConfirmationMail(request.workspace.name, { confirm, unsubscribe });
      mail = { to: email, subject: question.subject, text: question.text, expiresAt: content.expiresAt };
    } else {
      const extra = first ? `\n${confirmLine(request.workspace.name, confirm)}` : '';
      mail = {
        to: email,
        subject: content.subject,
        text: `${content.text}${extra}`,
        expiresAt: content.expiresAt,
        ...(content.attachments ? { attachments: content.attachments } : {}),
      };
    }
    mail.text = `${mail.text.trimEnd()}\n\n${unsubscribeFooter(request.workspace.name, unsubscribe)}`;
    mail.headers = {
      'List-Unsubscribe': `<${links.oneClick(workspaceId, email)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    };
    try {
      await this.deps.mailer.send(mail);
    } catch (error) {
      await admission.release();
      throw error;
    }
    return first && request.kind === 'report' ? 'confirmation_sent' : 'sent';
  }

  /** Admits and delivers one mail; what became of the address (a spent budget throws MAIL_LIMIT_REACHED). */
  async send(request: OutboundRequest, content: OutboundContent): Promise<RecipientOutcome> {
    const admission = await this.admit(request);
    if (admission.action === 'withhold') return admission.outcome;
    return this.deliver(admission, content);
  }

  /** An accepted invitation says yes to the workspace's mail, in the accept's unit of work. */
  confirmIn(tx: SystemTx, workspaceId: string, email: string): Promise<void> {
    return this.deps.repository.answer(tx, workspaceId, email.toLowerCase(), 'confirmed', this.deps.now());
  }

  /** GET /api/mail/link: what the link is about, before the person presses the button. */
  async preview(token: string): Promise<MailLinkPreview> {
    const claim = this.claimOf(token);
    return this.deps.transactions.system('outbound mail: link', async (tx) => {
      const name = await this.deps.insiders.workspaceNameIn(tx, claim.workspaceId);
      if (name === null) throw invalidLink();
      const row = await this.deps.repository.find(tx, claim.workspaceId, claim.email);
      return { purpose: claim.purpose, workspaceName: name, email: claim.email, state: row?.state ?? 'none' };
    });
  }

  /** POST /api/mail/confirm and /api/mail/unsubscribe: the address's answer, whichever it gave before. */
  async answer(token: string, purpose: 'confirm' | 'unsubscribe'): Promise<MailConsentState> {
    const claim = this.claimOf(token);
    if (claim.purpose !== purpose) throw invalidLink();
    const state = purpose === 'confirm' ? 'confirmed' : 'unsubscribed';
    await this.deps.transactions.system('outbound mail: answer', async (tx) => {
      if ((await this.deps.insiders.workspaceNameIn(tx, claim.workspaceId)) === null) throw invalidLink();
      await this.deps.repository.answer(tx, claim.workspaceId, claim.email, state, this.deps.now());
    });
    return state;
  }

  private claimOf(token: string) {
    const claim = this.deps.links.read(token);
    if (!claim) throw invalidLink();
    return claim;
  }

  private rulesFor(request: OutboundRequest, email: string, first: boolean) {
    const rule = (scope: MailLimitScope, max: number): LimitRule => ({
      name: `mail:${scope}`,
      scope: 'account',
      max,
      windowSeconds: DAY_SECONDS,
    });
    const list: { scope: MailLimitScope; rule: LimitRule; who: { account: string; address: string } }[] = [];
    if (first)
      list.push({
        scope: 'confirmation',
        rule: rule('confirmation', this.limits.confirmationsPerRecipient),
        who: { account: email, address: '' },
      });
    if (request.senderId)
      list.push({
        scope: 'sender',
        rule: rule('sender', this.limits.perSender),
        who: { account: request.senderId, address: '' },
      });
    list.push(
      {
        scope: 'workspace',
        rule: rule('workspace', this.limits.perWorkspace),
        who: { account: request.workspace.id, address: '' },
      },
      { scope: 'recipient', rule: rule('recipient', this.limits.perRecipient), who: { account: email, address: '' } },
    );
    return list;
  }
}

const invalidLink = () => AppError.badRequest(OUTBOUND_MAIL_MESSAGES.linkInvalid, 'MAIL_LINK_INVALID');
