import { randomUUID } from 'node:crypto';
import {
  EMAIL_VERIFICATION_TTL_SECONDS,
  NOTIFICATION_MESSAGES,
  type NotificationChannel,
  type NotificationSettings,
  type NotificationTestResult,
  type UpdateNotificationSettings,
} from '@adpilot/contracts';
import type { NotificationSettingsRow, SystemTx, Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import { hashToken, randomToken, type SecretBox } from '../../lib/crypto.ts';
import type { Mailer } from '../../providers/mail/mailer.ts';
import type { AttemptLimiter, LimitRule, AuthService, VerifiedAddress as Address } from '../auth/index.ts';
import type { LineSender } from './line-sender.ts';
import { confirmationMail, lineText, testMail, webhookBody, type Language } from './notification-texts.ts';
import type { NotificationsRepository, SettingsPatch } from './notifications.repository.ts';
import type { WebhookAddressPolicy } from './webhook-address.ts';
import type { WebhookSender } from './webhook-sender.ts';

/** How long a notification kept in the outbox (no SMTP server) stays there. */
export const NOTIFICATION_MAIL_KEEP_MS = 7 * 86_400_000;

/**
 * Mail a user can make AdPilot send on demand, counted per user in the database before the mail (ADR 0018's
 * limiter): confirmation links (the Resend button, and turning e-mail on) and test sends of each channel (ADR 0054).
 */
export const NOTIFICATION_LIMITS = {
  confirmation: { name: 'notify:confirmation', scope: 'account', max: 5, windowSeconds: 60 * 60 },
  testEmail: { name: 'notify:test-email', scope: 'account', max: 5, windowSeconds: 60 * 60 },
  testWebhook: { name: 'notify:test-webhook', scope: 'account', max: 5, windowSeconds: 60 * 60 },
  testLine: { name: 'notify:test-line', scope: 'account', max: 5, windowSeconds: 60 * 60 },
} satisfies Record<string, LimitRule>;

/** The limiter's requester for a per-user count: the user's id, never an address. */
const perUser = (userId: string) => ({ account: `user:${userId}`, address: '' });

export interface NotificationsDeps {
  transactions: Transactions;
  repository: NotificationsRepository;
  users: Pick<AuthService, 'addressIn' | 'confirmAddressIn'>;
  secretBox: SecretBox;
  mailer: Mailer;
  policy: WebhookAddressPolicy;
  sender: WebhookSender;
  line: LineSender;
  limiter: AttemptLimiter;
  publicUrl: string;
  now: () => Date;
}

/** A new webhook secret: `whsec_` and 32 random bytes; its hint is the last four characters. */
function newSecret(): { secret: string; hint: string } {
  const secret = `whsec_${randomToken(32)}`;
  return { secret, hint: `whsec_…${secret.slice(-4)}` };
}

/** A channel access token's hint: its last four characters, never more (tokens run to well over a hundred). */
function tokenHint(token: string): string {
  return `…${token.slice(-4)}`;
}

/** The user's notification settings (account menu → Notifications) and the Send test button. */
export class NotificationsService {
  constructor(private readonly deps: NotificationsDeps) {}

  private present(
    row: NotificationSettingsRow | undefined,
    address: Address,
    pendingSince: Date | null,
  ): NotificationSettings {
    return {
      email: address.email,
      mailDelivery: this.deps.mailer.kind,
      emailVerified: address.verified,
      verificationSentAt: address.verified || !pendingSince ? null : pendingSince.toISOString(),
      emailErrors: Boolean(row?.emailErrorsSince),
      emailDigest: Boolean(row?.emailDigestSince),
      digestHour: row?.digestHour ?? 8,
      language: row?.language ?? 'en',
      timeZone: row?.timeZone ?? 'UTC',
      webhook:
        row?.webhookUrl && row.webhookSecretHint ? { url: row.webhookUrl, secretHint: row.webhookSecretHint } : null,
      line: {
        target: row?.lineTarget ?? null,
        tokenHint: row?.lineTokenEnc ? (row.lineTokenHint ?? null) : null,
        enabled: Boolean(row?.lineSince),
      },
    };
  }

  get(userId: string): Promise<NotificationSettings> {
    const { repository } = this.deps;
    return this.deps.transactions.user(userId, async (tx) => {
      const address = await this.deps.users.addressIn(tx);
      return this.present(
        await repository.get(tx),
        address,
        await repository.pendingVerification(tx, address.email, this.deps.now()),
      );
    });
  }

  async update(
    userId: string,
    body: UpdateNotificationSettings,
  ): Promise<NotificationSettings & { webhookSecret?: string }> {
    if (body.webhookUrl && !this.deps.policy.acceptsUrl(body.webhookUrl))
      throw new AppError('VALIDATION_ERROR', NOTIFICATION_MESSAGES.webhookUrlPrivate, 400, [
        { field: 'webhookUrl', message: NOTIFICATION_MESSAGES.webhookUrlPrivate },
      ]);
    const { repository, secretBox } = this.deps;
    const saved = await this.deps.transactions.user(userId, async (tx) => {
      const current = await repository.get(tx);
      const patch: SettingsPatch = {
        emailErrors: body.emailErrors,
        emailDigest: body.emailDigest,
        digestHour: body.digestHour,
        language: body.language,
        timeZone: body.timeZone,
      };
      let made: string | undefined;
      if (body.webhookUrl === null) {
        Object.assign(patch, { webhookUrl: null, webhookSecretEnc: null, webhookSecretHint: null, webhook: false });
      } else if (body.webhookUrl !== undefined) {
        patch.webhookUrl = body.webhookUrl;
        patch.webhook = true;
        if (!current?.webhookSecretEnc) {
          const { secret, hint } = newSecret();
          made = secret;
          patch.webhookSecretEnc = secretBox.encrypt(secret);
          patch.webhookSecretHint = hint;
        }
      }
      this.patchLine(patch, current, body);
      const row = await repository.save(tx, patch);
      const address = await this.deps.users.addressIn(tx);
      const pending = await repository.pendingVerification(tx, address.email, this.deps.now());
      return { row, address, pending, made };
    });
    let { pending } = saved;
    // Turning e-mail on for an address never confirmed sends its confirmation, once while a link is live.
    const turnedOn = body.emailErrors === true || body.emailDigest === true;
    if (turnedOn && !saved.address.verified && !pending) {
      pending = await this.sendConfirmation(userId, saved.address.email, saved.row.language).catch((error: unknown) => {
        // Refused by the limit: the settings are saved all the same; the dialog offers Resend, which says why.
        if (error instanceof AppError && error.code === 'RATE_LIMITED') return null;
        throw error;
      });
    }
    const settings = this.present(saved.row, saved.address, pending);
    return saved.made ? { ...settings, webhookSecret: saved.made } : settings;
  }

  /**
   * The LINE part of a change (ADR 0075): a new token is sealed and only its hint kept; null removes the channel;
   * turning it on needs a token and a target, given now or before, and keeps its `since` if it was on already.
   */
  private patchLine(
    patch: SettingsPatch,
    current: NotificationSettingsRow | undefined,
    body: UpdateNotificationSettings,
  ): void {
    if (body.lineToken === null) {
      Object.assign(patch, { lineTokenEnc: null, lineTokenHint: null, lineTarget: null, line: false });
      return;
    }
    if (body.lineToken !== undefined) {
      patch.lineTokenEnc = this.deps.secretBox.encrypt(body.lineToken);
      patch.lineTokenHint = tokenHint(body.lineToken);
    }
    if (body.lineTarget !== undefined) patch.lineTarget = body.lineTarget;
    if (body.line === undefined) return;
    const ready = (body.lineToken ?? current?.lineTokenEnc) && (body.lineTarget ?? current?.lineTarget);
    if (body.line && !ready)
      throw new AppError('VALIDATION_ERROR', NOTIFICATION_MESSAGES.noLine, 400, [
        { field: 'line', message: NOTIFICATION_MESSAGES.noLine },
      ]);
    patch.line = body.line;
  }

  /** The Resend button: a new confirmation link for the account's address, within the per-user limit. */
  async requestVerification(userId: string): Promise<NotificationSettings> {
    const { repository } = this.deps;
    const { row, address } = await this.deps.transactions.user(userId, async (tx) => ({
      row: await repository.get(tx),
      address: await this.deps.users.addressIn(tx),
    }));
    if (address.verified) throw AppError.conflict(NOTIFICATION_MESSAGES.alreadyVerified);
    const pending = await this.sendConfirmation(userId, address.email, row?.language ?? 'en');
    return this.present(row, address, pending);
  }

  /**
   * Counts the mail against the user's limit first (concurrent requests each see their own count), then stores the
   * link's hash, bound to the address, and mails the link. Returns when the link was made.
   */
  private async sendConfirmation(userId: string, email: string, language: Language): Promise<Date> {
    const { limiter, repository, mailer } = this.deps;
    await limiter.take([NOTIFICATION_LIMITS.confirmation], perUser(userId), NOTIFICATION_MESSAGES.tooManyConfirmations);
    const token = randomToken();
    const createdAt = this.deps.now();
    const expiresAt = new Date(createdAt.getTime() + EMAIL_VERIFICATION_TTL_SECONDS * 1000);
    await this.deps.transactions.user(userId, (tx) =>
      repository.insertVerification(tx, { email, tokenHash: hashToken(token), expiresAt, createdAt }),
    );
    const link = `${this.deps.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
    await mailer.send({ to: email, ...confirmationMail(language, link), expiresAt });
    return createdAt;
  }

  /**
   * Uses a confirmation link once, in one unit of work: the link is taken, the address marked verified (by auth, only
   * while it is still the account's address) and the user's other links retired. Returns the user, or undefined for
   * a link unknown, used, expired or sent to an address the account no longer has.
   */
  private async confirmVerificationIn(tx: SystemTx, tokenHash: string, at: Date): Promise<string | undefined> {
    const taken = await this.deps.repository.takeVerification(tx, tokenHash, at);
    if (!taken) return undefined;
    if (!(await this.deps.users.confirmAddressIn(tx, taken.userId, taken.email))) return undefined;
    await this.deps.repository.retireVerifications(tx, taken.userId, at);
    return taken.userId;
  }

  /** The confirmation page: uses a link once; signed in or not, the token alone says whose address it proves. */
  async confirmEmail(token: string): Promise<{ message: string }> {
    const userId = await this.deps.transactions.system('email verification', (tx) =>
      this.confirmVerificationIn(tx, hashToken(token), this.deps.now()),
    );
    if (!userId) throw AppError.badRequest(NOTIFICATION_MESSAGES.verificationInvalid, 'INVALID_STATE');
    return { message: NOTIFICATION_MESSAGES.verificationDone };
  }

  /** A new secret replaces the old one at once; it is shown in this answer only. */
  async rotateSecret(userId: string): Promise<{ webhookSecret: string }> {
    const { repository, secretBox } = this.deps;
    return this.deps.transactions.user(userId, async (tx) => {
      const current = await repository.get(tx);
      if (!current?.webhookUrl) throw AppError.badRequest(NOTIFICATION_MESSAGES.noWebhook);
      const { secret, hint } = newSecret();
      await repository.save(tx, { webhookSecretEnc: secretBox.encrypt(secret), webhookSecretHint: hint });
      return { webhookSecret: secret };
    });
  }

  /**
   * Sends a test now, once, without retries, and says what happened. E-mail only to a verified address; each
   * channel's tests are counted per user before the send.
   */
  async sendTest(userId: string, channel: NotificationChannel): Promise<NotificationTestResult> {
    const { repository, limiter } = this.deps;
    const { row, address } = await this.deps.transactions.user(userId, async (tx) => ({
      row: await repository.get(tx),
      address: await this.deps.users.addressIn(tx),
    }));
    const language = row?.language ?? 'en';
    if (channel === 'email') {
      if (!address.verified) throw new AppError('EMAIL_NOT_VERIFIED', NOTIFICATION_MESSAGES.emailNotVerified, 409);
      await limiter.take([NOTIFICATION_LIMITS.testEmail], perUser(userId), NOTIFICATION_MESSAGES.tooManyTests);
      const mail = testMail(language);
      try {
        await this.deps.mailer.send({
          to: address.email,
          ...mail,
          expiresAt: new Date(this.deps.now().getTime() + NOTIFICATION_MAIL_KEEP_MS),
        });
        return { channel, delivered: true, status: null, code: null };
      } catch {
        return { channel, delivered: false, status: null, code: 'network' };
      }
    }
    if (channel === 'line') return this.sendLineTest(userId, row);
    if (!row?.webhookUrl || !row.webhookSecretEnc) throw AppError.badRequest(NOTIFICATION_MESSAGES.noWebhook);
    await limiter.take([NOTIFICATION_LIMITS.testWebhook], perUser(userId), NOTIFICATION_MESSAGES.tooManyTests);
    const body = webhookBody({ kind: 'test' }, { language, publicUrl: this.deps.publicUrl, sentAt: this.deps.now() });
    const outcome = await this.deps.sender.send(
      row.webhookUrl,
      this.deps.secretBox.decrypt(row.webhookSecretEnc),
      body,
    );
    return outcome.ok
      ? { channel, delivered: true, status: outcome.status, code: null }
      : { channel, delivered: false, status: outcome.status, code: outcome.code };
  }

  /** A LINE test push, whether or not LINE is on: a new retry key each time, so each test is sent. */
  private async sendLineTest(
    userId: string,
    row: NotificationSettingsRow | undefined,
  ): Promise<NotificationTestResult> {
    if (!row?.lineTokenEnc || !row.lineTarget) throw AppError.badRequest(NOTIFICATION_MESSAGES.noLine);
    await this.deps.limiter.take([NOTIFICATION_LIMITS.testLine], perUser(userId), NOTIFICATION_MESSAGES.tooManyTests);
    const text = lineText(
      { kind: 'test' },
      { language: row.language, timeZone: row.timeZone, publicUrl: this.deps.publicUrl },
    );
    const outcome = await this.deps.line.push(this.deps.secretBox.decrypt(row.lineTokenEnc), {
      to: row.lineTarget,
      text,
      retryKey: randomUUID(),
    });
    return outcome.ok
      ? { channel: 'line', delivered: true, status: outcome.status, code: null }
      : { channel: 'line', delivered: false, status: outcome.status, code: outcome.code };
  }
}
