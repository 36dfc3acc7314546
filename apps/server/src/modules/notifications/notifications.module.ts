import { IMMEDIATE_SIGNAL_CODES } from '@adpilot/contracts';
import type { Transactions } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import type { Mailer } from '../../providers/mail/mailer.ts';
import type { ActivityRepository, NewActivity } from '../activity/index.ts';
import type { AttemptLimiter, AuthService } from '../auth/index.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { RulesService } from '../rules/index.ts';
import { LineDelivery, type LineExtraLines } from './line-delivery.ts';
import { decisionLines } from './notification-texts.ts';
import type { DecisionLinks } from './notification-dispatcher.ts';

/** The decision links of an entry as lines in the member's language. */
const linesOf =
  (links: DecisionLinks): LineExtraLines =>
  async (tx, entry, language) =>
    decisionLines(await links(tx, entry), language);
import { LineSender } from './line-sender.ts';
import { NotificationDispatcher } from './notification-dispatcher.ts';
import { defineNotificationJobs, type WebhookRetry } from './notifications.jobs.ts';
import { NotificationsRepository } from './notifications.repository.ts';
import { emailVerificationRoutes, notificationsRoutes } from './notifications.routes.ts';
import { NotificationsService } from './notifications.service.ts';
import { WebhookAddressPolicy } from './webhook-address.ts';
import { WebhookSender } from './webhook-sender.ts';

export interface NotificationsModuleDeps {
  transactions: Transactions;
  /** The activity log: the notifier reads the entries it sends (and the digest's rule actions) through it. */
  activity: ActivityRepository;
  /** Auth's API on the user's address: whether it is proved, and the proof of a confirmation link (ADR 0066). */
  users: Pick<AuthService, 'addressIn' | 'confirmAddressIn'>;
  /** The rules' API: the message of a rule's notify action (ADR 0066). */
  rules: Pick<RulesService, 'notifyMessageIn'>;
  queue: JobQueue;
  /** How often and how soon a failed webhook call is tried again (tests shorten it). */
  webhookRetry?: WebhookRetry;
  mailer: Mailer;
  secretBox: SecretBox;
  publicUrl: string;
  /** The LINE Messaging API's address (LINE_API_URL). */
  lineApiUrl: string;
  /** Lines added under an entry's LINE message (links another module words); none by default. */
  /** A proposal's approve and reject links for the member of `tx` (ADR 0073), carried by the e-mail and LINE messages. */
  decisionLinks?: DecisionLinks;
  /** Hosts a webhook may reach although private (WEBHOOK_ALLOWED_PRIVATE_HOSTS). */
  allowedPrivateHosts: readonly string[];
  /** Counts confirmation mails and test sends per user (ADR 0054). */
  limiter: AttemptLimiter;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** Whether an entry is one to send at once (the nudge's test; the scan's SQL says the same). */
export function isImmediate(entry: NewActivity): boolean {
  return (
    entry.level === 'error' ||
    (entry.category === 'rule_action' &&
      (entry.metadata?.action === 'notify' || entry.metadata?.code === 'rule_action_proposed')) ||
    (entry.category === 'system' && (IMMEDIATE_SIGNAL_CODES as readonly unknown[]).includes(entry.metadata?.code))
  );
}

/**
 * The activity writer every module is handed, with a nudge after an entry to send at once: the nudge asks for the
 * workspace's scan a second later (after the writing transaction has committed, nearly always); the minute scan
 * catches whatever a nudge missed. Everything else of the writer is the writer's own.
 */
export function nudgingActivity(inner: ActivityRepository, nudge: (workspaceId: string) => void): ActivityRepository {
  const wrapped = Object.create(inner) as ActivityRepository;
  wrapped.insert = async (tx, entry) => {
    const row = await inner.insert(tx, entry);
    if (isImmediate(entry)) nudge(tx.workspaceId);
    return row;
  };
  return wrapped;
}

/**
 * The notifier (ADR 0038): its repository, the webhook address policy and sender, the LINE sender (ADR 0075), the
 * dispatcher and its jobs. Its
 * public API: `dispatcher` (the nudge the activity writer calls, and the jobs' work) and the two route plugins.
 */
export function createNotificationsModule(deps: NotificationsModuleDeps) {
  const repository = new NotificationsRepository();
  const policy = new WebhookAddressPolicy(deps.allowedPrivateHosts);
  const sender = new WebhookSender(policy);
  const line = new LineSender(deps.lineApiUrl);
  const dispatcher = new NotificationDispatcher({ ...deps, repository, sender });
  const lineDelivery = new LineDelivery({
    ...deps,
    repository,
    sender: line,
    ...(deps.decisionLinks ? { extraLines: linesOf(deps.decisionLinks) } : {}),
  });
  const service = new NotificationsService({ ...deps, repository, policy, sender, line });
  defineNotificationJobs(deps.queue, dispatcher, lineDelivery, deps.webhookRetry);
  return {
    service,
    dispatcher,
    /** Which addresses AdPilot may call for a person (ADR 0039): Settings' AI server is held to it too. */
    addressPolicy: policy,
    routes: bindRoutes(notificationsRoutes, { notifications: service }),
    emailVerificationRoutes: bindRoutes(emailVerificationRoutes, { notifications: service }),
  };
}
