import type { Transactions } from '@adpilot/db';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { Mailer } from '../../providers/mail/mailer.ts';
import type { AttemptLimiter } from '../auth/index.ts';
import { MailLinks } from './mail-links.ts';
import { MailRecipientsRepository } from './mail-recipients.repository.ts';
import { OutboundMail, type Insiders, type MailLimits } from './outbound-mail.ts';
import { outboundRoutes } from './outbound.routes.ts';

export interface OutboundModuleDeps {
  transactions: Transactions;
  insiders: Insiders;
  limiter: Pick<AttemptLimiter, 'take' | 'refund'>;
  mailer: Mailer;
  linkKey: Buffer;
  publicUrl: string;
  limits?: Partial<MailLimits>;
  now: () => Date;
}

/**
 * Outbound mail (ADR 0092): the policy every mail to someone else goes through (reports, invitations), and the
 * confirm and unsubscribe links' routes (/api/mail). Its public API: `service` (admit, deliver, send, confirmIn).
 */
export function createOutboundModule(deps: OutboundModuleDeps) {
  const service = new OutboundMail({
    transactions: deps.transactions,
    repository: new MailRecipientsRepository(),
    insiders: deps.insiders,
    limiter: deps.limiter,
    mailer: deps.mailer,
    links: new MailLinks(deps.linkKey, deps.publicUrl),
    ...(deps.limits ? { limits: deps.limits } : {}),
    now: deps.now,
  });
  return { service, routes: bindRoutes(outboundRoutes, { outbound: service }) };
}
