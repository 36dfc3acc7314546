import { createHash } from 'node:crypto';
import {
  addDays,
  describeActivity,
  localDate,
  localMinutesOfDay,
  NOTIFICATION_ACTIVITY_CODES,
  startOfLocalDay,
  type WebhookFailureCode,
} from '@adpilot/contracts';
import type { ActivityLogRow, TenantScope, TenantTx, Transactions } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import type { SecretBox } from '../../lib/crypto.ts';
import type { Mailer } from '../../providers/mail/mailer.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { RulesService } from '../rules/index.ts';
import { decisionLines, digestMail, entryMail, webhookBody } from './notification-texts.ts';
import type { DueEntry, NotificationsRepository } from './notifications.repository.ts';
import { NOTIFICATION_MAIL_KEEP_MS } from './notifications.service.ts';
import type { WebhookSender } from './webhook-sender.ts';

export const NOTIFY_JOBS = {
  /** Every minute: every user's entries since their cursor. */
  scan: 'notify-scan',
  /** One user's scan, soon after an entry to send at once was written (stately, keyed by user). */
  nudge: 'notify-nudge',
  email: 'notify-email',
  webhook: 'notify-webhook',
  /** One entry's LINE push to one member (ADR 0075). */
  line: 'notify-line',
  /** Hourly: enqueue the digests whose hour has come in each user's time zone. */
  digestTick: 'notify-digest-tick',
  digest: 'notify-digest',
} as const;

/** How far a scan looks back before each user's cursor: a transaction may commit after a later scan began. */
export const SCAN_OVERLAP_SECONDS = 300;
/** Nothing older is ever sent at once: well inside pg-boss's retention of finished jobs, which drops repeats. */
export const SCAN_LOOKBACK_SECONDS = 6 * 3600;
const SCAN_LIMIT = 2000;
const DIGEST_LINES = 50;

/** The job queue as the notifier uses it: an `id` makes a send idempotent (a second send of it is dropped). */
export interface NotifyQueue {
  send(
    name: string,
    data: object,
    options?: { id?: string; singletonKey?: string; startAfter?: number },
  ): Promise<string | null>;
}

/** A stable job id for something that must be sent once: the hash of its name, shaped as a uuid. */
export function onceId(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

/** A proposal's approve and reject links for the member of `tx`, or null (another entry, or one they cannot decide). */
export type DecisionLinks = (
  tx: TenantTx,
  entry: ActivityLogRow,
) => Promise<{ approve: string; reject: string } | null>;

export interface DispatcherDeps {
  transactions: Transactions;
  repository: NotificationsRepository;
  activity: ActivityRepository;
  users: Pick<AuthService, 'addressIn'>;
  rules: Pick<RulesService, 'notifyMessageIn'>;
  decisionLinks?: DecisionLinks;
  queue: NotifyQueue;
  mailer: Mailer;
  sender: WebhookSender;
  secretBox: SecretBox;
  publicUrl: string;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * From activity entries to e-mails, webhook calls and LINE pushes (ADR 0038, 0075). Scans read each user's entries after a cursor and
 * enqueue one job per entry and channel whose pg-boss id is the entry's id, so however many processes scan the
 * same entries, each is sent once: pg-boss drops a job whose id it already holds.
 */
export class NotificationDispatcher {
  constructor(private readonly deps: DispatcherDeps) {}

  private async enqueue(due: DueEntry[]): Promise<number> {
    let queued = 0;
    for (const entry of due) {
      const data = { userId: entry.userId, workspaceId: entry.workspaceId, activityId: entry.id };
      // One send per entry and member: the job id is both, so a rescan of the entry adds nothing.
      const id = onceId(`${entry.id}:${entry.userId}`);
      if (entry.toEmail && (await this.deps.queue.send(NOTIFY_JOBS.email, data, { id }))) queued += 1;
      if (entry.toWebhook && (await this.deps.queue.send(NOTIFY_JOBS.webhook, data, { id }))) queued += 1;
      if (entry.toLine && (await this.deps.queue.send(NOTIFY_JOBS.line, data, { id }))) queued += 1;
    }
    return queued;
  }

  private readonly scanOptions = {
    overlapSeconds: SCAN_OVERLAP_SECONDS,
    lookbackSeconds: SCAN_LOOKBACK_SECONDS,
    limit: SCAN_LIMIT,
  };

  /** Every user's new entries (the minute tick). Returns how many jobs it enqueued. */
  async scanAll(): Promise<number> {
    const due = await this.deps.transactions.system('notification scan', (tx) =>
      this.deps.repository.scanDue(tx, this.scanOptions),
    );
    return this.enqueue(due);
  }

  /** The new entries of one workspace's members (a nudge). */
  async scanWorkspace(workspaceId: string): Promise<number> {
    const due = await this.deps.transactions.system('notification nudge', (tx) =>
      this.deps.repository.scanDue(tx, this.scanOptions, workspaceId),
    );
    return this.enqueue(due);
  }

  /** Asks for one workspace's scan soon; at most one waits per workspace. Never fails its caller. */
  nudge(workspaceId: string): void {
    this.deps.queue
      .send(NOTIFY_JOBS.nudge, { workspaceId }, { singletonKey: workspaceId, startAfter: 1 })
      .catch((error: unknown) => this.deps.log.debug({ err: error }, 'notification nudge not queued'));
  }

  /** One entry's mail to one member (a member who left since finds nothing: the workspace's policies hide it). */
  async deliverEmail(member: TenantScope, activityId: string): Promise<void> {
    const { repository } = this.deps;
    const found = await this.deps.transactions.tenant(member, async (tx) => {
      const settings = await repository.get(tx);
      const entry = await this.deps.activity.find(tx, activityId);
      // Checked again when sending: the address may have changed, or the channel turned off, since the scan.
      const address = await this.deps.users.addressIn(tx);
      if (!settings?.emailErrorsSince || !entry || !address.verified || entry.category === 'note') return null;
      const ruleId = typeof entry.metadata.ruleId === 'string' ? entry.metadata.ruleId : null;
      const message =
        ruleId && entry.metadata.action === 'notify' ? await this.deps.rules.notifyMessageIn(tx, ruleId) : null;
      const links = this.deps.decisionLinks ? await this.deps.decisionLinks(tx, entry) : null;
      return { settings, entry, message, links, email: address.email };
    });
    if (!found) return;
    await this.mail(found.email, found.settings, (options) =>
      entryMail(found.entry, found.message, { ...options, extraLines: decisionLines(found.links, options.language) }),
    );
  }

  /**
   * One webhook call. A failure that may pass (5xx, 429, timeout, network) throws while retries remain, so pg-boss
   * tries again with backoff; the last failure, or one that cannot pass (4xx, a refused address), is written to
   * the activity log as a code with its parameters.
   */
  async deliverWebhook(
    member: TenantScope,
    activityId: string,
    attempt: { retryCount: number; retryLimit: number },
  ): Promise<void> {
    const { repository, secretBox } = this.deps;
    const found = await this.deps.transactions.tenant(member, async (tx) => {
      const settings = await repository.get(tx);
      const entry = await this.deps.activity.find(tx, activityId);
      if (!settings?.webhookUrl || !settings.webhookSecretEnc || !entry) return null;
      const ruleId = typeof entry.metadata.ruleId === 'string' ? entry.metadata.ruleId : null;
      const message =
        ruleId && entry.metadata.action === 'notify' ? await this.deps.rules.notifyMessageIn(tx, ruleId) : null;
      const links = this.deps.decisionLinks ? await this.deps.decisionLinks(tx, entry) : null;
      return { settings, entry, message, links };
    });
    if (!found) return;
    const { settings } = found;
    const url = settings.webhookUrl as string;
    const body = webhookBody(
      { kind: 'entry', entry: found.entry, message: found.message },
      { language: settings.language, publicUrl: this.deps.publicUrl, sentAt: this.deps.now(), links: found.links },
    );
    const outcome = await this.deps.sender.send(url, secretBox.decrypt(settings.webhookSecretEnc as string), body);
    if (outcome.ok) return;
    if (outcome.retryable && attempt.retryCount < attempt.retryLimit)
      throw new Error(`webhook delivery failed (${outcome.code}${outcome.status ? ` ${outcome.status}` : ''})`);
    await this.logFailure(member, url, activityId, outcome, attempt.retryCount + 1);
  }

  private async logFailure(
    member: TenantScope,
    url: string,
    activityId: string,
    outcome: { code: WebhookFailureCode; status: number | null },
    attempts: number,
  ): Promise<void> {
    const host = new URL(url).host;
    const params = { host, attempts, reason: outcome.code, status: outcome.status };
    await this.deps.transactions.tenant(member, (tx) =>
      this.deps.activity.insert(tx, {
        level: 'error',
        category: 'notification',
        description: describeActivity('notification_webhook_failed', params),
        metadata: {
          code: NOTIFICATION_ACTIVITY_CODES.webhookFailed,
          params,
          activityId,
        },
      }),
    );
  }

  /**
   * Enqueues the digest of every subscriber whose digest hour has come today in their time zone; the job id is
   * the user and local day, so each day's digest is queued once however often this runs.
   */
  async enqueueDueDigests(at: Date = this.deps.now()): Promise<number> {
    const subscribers = await this.deps.transactions.system('notification digests', (tx) =>
      this.deps.repository.digestSubscribers(tx),
    );
    let queued = 0;
    for (const subscriber of subscribers) {
      const hour = Math.floor(localMinutesOfDay(subscriber.timeZone, at.getTime()) / 60);
      if (hour < subscriber.digestHour) continue;
      const date = addDays(localDate(subscriber.timeZone, at.getTime()), -1);
      const id = onceId(`digest:${subscriber.userId}:${subscriber.workspaceId}:${date}`);
      const data = { userId: subscriber.userId, workspaceId: subscriber.workspaceId, date };
      if (await this.deps.queue.send(NOTIFY_JOBS.digest, data, { id })) queued += 1;
    }
    return queued;
  }

  /**
   * The digest of one local day's rule actions (never the user's own notes); nothing is sent for a day without
   * any, nor to an address not verified (ADR 0054).
   */
  async sendDigest(member: TenantScope, date: string): Promise<boolean> {
    const { repository } = this.deps;
    const found = await this.deps.transactions.tenant(member, async (tx) => {
      const settings = await repository.get(tx);
      const address = await this.deps.users.addressIn(tx);
      if (!settings?.emailDigestSince || !address.verified) return null;
      const from = new Date(startOfLocalDay(settings.timeZone, date));
      const to = new Date(startOfLocalDay(settings.timeZone, addDays(date, 1)));
      const actions = await this.deps.activity.ruleActionsBetween(tx, from, to, DIGEST_LINES);
      return { settings, actions, email: address.email };
    });
    if (!found || found.actions.total === 0) return false;
    await this.mail(found.email, found.settings, (options) => digestMail(date, found.actions, options));
    return true;
  }

  /** A notification mail in the user's language and time zone, kept in the outbox for NOTIFICATION_MAIL_KEEP_MS. */
  private async mail(
    to: string,
    settings: Pick<MailOptions, 'language' | 'timeZone'>,
    compose: (options: MailOptions) => { subject: string; text: string },
  ): Promise<void> {
    const mail = compose({ language: settings.language, timeZone: settings.timeZone, publicUrl: this.deps.publicUrl });
    await this.deps.mailer.send({
      to,
      ...mail,
      expiresAt: new Date(this.deps.now().getTime() + NOTIFICATION_MAIL_KEEP_MS),
    });
  }
}

type MailOptions = Parameters<typeof entryMail>[2];
