import {
  NOTIFICATION_MESSAGES,
  type NotificationSettings,
  type NotificationTestResult,
  type UpdateNotificationSettings,
} from '@adpilot/contracts';
import type { NotificationSettingsRow, Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import { randomToken, type SecretBox } from '../../lib/crypto.ts';
import type { Mailer } from '../../providers/mail/mailer.ts';
import type { AttemptLimiter, LimitRule } from '../auth/attempt-limiter.ts';
import { testMail, webhookBody } from './notification-texts.ts';
import type { NotificationsRepository, SettingsPatch } from './notifications.repository.ts';
import type { WebhookAddressPolicy } from './webhook-address.ts';
import type { WebhookSender } from './webhook-sender.ts';

/** How long a notification kept in the outbox (no SMTP server) stays there. */
export const NOTIFICATION_MAIL_KEEP_MS = 7 * 86_400_000;

/**
 * Test sends per user, e-mail and webhook together: enough to set a channel up, not enough to make the instance a
 * relay for mail to an address nobody verified.
 */
export const TEST_SEND_LIMIT: LimitRule = { name: 'notify-test:user', scope: 'account', max: 10, windowSeconds: 3600 };
const TOO_MANY_TESTS = 'Too many test notifications. Please try again later.';

export interface NotificationsDeps {
  transactions: Transactions;
  repository: NotificationsRepository;
  secretBox: SecretBox;
  mailer: Mailer;
  policy: WebhookAddressPolicy;
  sender: WebhookSender;
  limiter: AttemptLimiter;
  publicUrl: string;
  now: () => Date;
}

/** A new webhook secret: `whsec_` and 32 random bytes; its hint is the last four characters. */
function newSecret(): { secret: string; hint: string } {
  const secret = `whsec_${randomToken(32)}`;
  return { secret, hint: `whsec_…${secret.slice(-4)}` };
}

/** The user's notification settings (account menu → Notifications) and the Send test button. */
export class NotificationsService {
  constructor(private readonly deps: NotificationsDeps) {}

  private present(row: NotificationSettingsRow | undefined, email: string): NotificationSettings {
    return {
      email,
      mailDelivery: this.deps.mailer.kind,
      emailErrors: Boolean(row?.emailErrorsSince),
      emailDigest: Boolean(row?.emailDigestSince),
      digestHour: row?.digestHour ?? 8,
      language: row?.language ?? 'en',
      timeZone: row?.timeZone ?? 'UTC',
      webhook:
        row?.webhookUrl && row.webhookSecretHint ? { url: row.webhookUrl, secretHint: row.webhookSecretHint } : null,
    };
  }

  get(userId: string): Promise<NotificationSettings> {
    const { repository } = this.deps;
    return this.deps.transactions.tenant(userId, async (tx) =>
      this.present(await repository.get(tx), await repository.userEmail(tx)),
    );
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
    return this.deps.transactions.tenant(userId, async (tx) => {
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
      const row = await repository.save(tx, patch);
      const settings = this.present(row, await repository.userEmail(tx));
      return made ? { ...settings, webhookSecret: made } : settings;
    });
  }

  /** A new secret replaces the old one at once; it is shown in this answer only. */
  async rotateSecret(userId: string): Promise<{ webhookSecret: string }> {
    const { repository, secretBox } = this.deps;
    return this.deps.transactions.tenant(userId, async (tx) => {
      const current = await repository.get(tx);
      if (!current?.webhookUrl) throw AppError.badRequest(NOTIFICATION_MESSAGES.noWebhook);
      const { secret, hint } = newSecret();
      await repository.save(tx, { webhookSecretEnc: secretBox.encrypt(secret), webhookSecretHint: hint });
      return { webhookSecret: secret };
    });
  }

  /** Sends a test now, once, without retries, and says what happened. */
  async sendTest(userId: string, channel: 'email' | 'webhook'): Promise<NotificationTestResult> {
    const { repository } = this.deps;
    await this.deps.limiter.take([TEST_SEND_LIMIT], { account: userId, address: '' }, TOO_MANY_TESTS);
    const { row, email } = await this.deps.transactions.tenant(userId, async (tx) => ({
      row: await repository.get(tx),
      email: await repository.userEmail(tx),
    }));
    const language = row?.language ?? 'en';
    if (channel === 'email') {
      const mail = testMail(language);
      try {
        await this.deps.mailer.send({
          to: email,
          ...mail,
          expiresAt: new Date(this.deps.now().getTime() + NOTIFICATION_MAIL_KEEP_MS),
        });
        return { channel, delivered: true, status: null, code: null };
      } catch {
        return { channel, delivered: false, status: null, code: 'network' };
      }
    }
    if (!row?.webhookUrl || !row.webhookSecretEnc) throw AppError.badRequest(NOTIFICATION_MESSAGES.noWebhook);
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
}
