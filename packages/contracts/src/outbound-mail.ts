import { z } from 'zod';

/**
 * Outbound mail a member's action sends to others (scheduled reports, invitations; ADR 0092). Every such mail is
 * counted against three daily budgets before it is sent: its sender's (the person whose action sends it), its
 * workspace's and its recipient's (whatever workspace sends). An address outside the workspace first receives one
 * mail that asks it to confirm, and nothing more from that workspace until it does; every mail carries a way out.
 */

/** Mails one person's actions may send in a day (a "Send now" to 20 addresses counts 20). */
export const MAIL_PER_SENDER_PER_DAY = 100;
/** Mails one workspace may send in a day, the clock's reports and its members' actions together. */
export const MAIL_PER_WORKSPACE_PER_DAY = 200;
/** Mails one address may receive in a day, from every workspace of the instance together. */
export const MAIL_PER_RECIPIENT_PER_DAY = 10;
/** First mails (the ones asking to confirm) one address may receive in a day, from every workspace together. */
export const MAIL_CONFIRMATIONS_PER_RECIPIENT_PER_DAY = 3;
/** A name a person chose, as it appears in a mail: at most this many characters. */
export const MAIL_NAME_MAX = 40;
/** Workspaces one person may own, their personal workspace included (ADR 0093). */
export const WORKSPACES_PER_PERSON = 25;

export const MAIL_LIMIT_SCOPES = ['sender', 'workspace', 'recipient', 'confirmation'] as const;
export type MailLimitScope = (typeof MAIL_LIMIT_SCOPES)[number];

export const OUTBOUND_MAIL_MESSAGES = {
  limit: {
    sender: `You have sent the most mail AdPilot sends for one person in a day (${MAIL_PER_SENDER_PER_DAY}). Please try again tomorrow.`,
    workspace: `This workspace has sent the most mail AdPilot sends for one workspace in a day (${MAIL_PER_WORKSPACE_PER_DAY}). Please try again tomorrow.`,
    recipient: `This address has received the most mail AdPilot sends to one address in a day (${MAIL_PER_RECIPIENT_PER_DAY}). Please try again tomorrow.`,
    confirmation: `This address has been asked to confirm too often today (${MAIL_CONFIRMATIONS_PER_RECIPIENT_PER_DAY}). Please try again tomorrow.`,
  } satisfies Record<MailLimitScope, string>,
  linkInvalid: 'This link is not valid. Open the latest link from the e-mail.',
  awaitingConfirmation:
    'This address has not answered the first mail from this workspace yet. AdPilot sends it nothing more until the person accepts or confirms.',
  unsubscribed: 'This address asked for no more mail from this workspace.',
  workspaceLimit: `You own ${WORKSPACES_PER_PERSON} workspaces, the most one person may own. Delete one you no longer need first.`,
} as const;

/**
 * What became of one address of a delivery: `sent` (the mail), `confirmation_sent` (the first mail, asking to
 * confirm, instead of the report), `awaiting_confirmation` (asked before and not answered yet: nothing sent),
 * `unsubscribed` (the address asked for no more), `limited` (a day's budget was used up).
 */
export const RECIPIENT_OUTCOMES = [
  'sent',
  'confirmation_sent',
  'awaiting_confirmation',
  'unsubscribed',
  'limited',
] as const;
export type RecipientOutcome = (typeof RECIPIENT_OUTCOMES)[number];

/** How an invitation's mail went: sent, queued (the mail server refused for now; it follows), or withheld. */
export const INVITATION_MAIL_STATES = ['sent', 'queued', 'withheld_unconfirmed', 'withheld_unsubscribed'] as const;
export type InvitationMailState = (typeof INVITATION_MAIL_STATES)[number];

/** The confirm and unsubscribe pages' and one-click POST's body. */
export const mailLinkInputSchema = z.strictObject({ token: z.string().min(1).max(1000) });
export type MailLinkInput = z.infer<typeof mailLinkInputSchema>;

export const mailLinkQuerySchema = z.strictObject({ token: z.string().min(1).max(1000) });

export const MAIL_CONSENT_STATES = ['none', 'pending', 'confirmed', 'unsubscribed'] as const;
export type MailConsentState = (typeof MAIL_CONSENT_STATES)[number];

/** GET /api/mail/link?token=…: whose mail the link is about, for the page that asks before acting. */
export const mailLinkPreviewSchema = z.object({
  purpose: z.enum(['confirm', 'unsubscribe']),
  workspaceName: z.string(),
  email: z.string(),
  state: z.enum(MAIL_CONSENT_STATES),
});
export type MailLinkPreview = z.infer<typeof mailLinkPreviewSchema>;

export const mailConsentSchema = z.object({ state: z.enum(MAIL_CONSENT_STATES) });
export type MailConsent = z.infer<typeof mailConsentSchema>;

const DOTS = /[.\u3002\uFF0E\uFF61\u2024]/gu;

/**
 * A name a person chose (a workspace's, an inviter's), made safe to stand in a mail someone else receives: control
 * and format characters become spaces, runs of space one, a URL's scheme is dropped and every dot between two
 * letters or digits is shown as "[.]", so no mail program turns it into a link; at most MAIL_NAME_MAX characters.
 * Callers never start a subject with it.
 */
export function neutralName(value: string, max: number = MAIL_NAME_MAX): string {
  let name = value
    .normalize('NFKC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/[<>"“”`]/gu, "'")
    .replace(/\b[a-z][a-z0-9+.-]*:\/*/giu, (scheme) =>
      /^(https?|ftp|mailto|file|data|javascript):/i.test(scheme) ? '' : scheme,
    )
    .replace(/\bwww\./giu, 'www ')
    .replace(DOTS, (dot, offset: number, whole: string) =>
      /[\p{L}\p{N}]/u.test(whole[offset - 1] ?? '') && /[\p{L}\p{N}]/u.test(whole[offset + 1] ?? '') ? '[.]' : dot,
    )
    .replace(/\s+/gu, ' ')
    .trim();
  const chars = [...name];
  if (chars.length > max)
    name = `${chars
      .slice(0, max - 1)
      .join('')
      .trimEnd()}…`;
  return name || '—';
}
