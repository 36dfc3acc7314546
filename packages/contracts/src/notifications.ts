import { z } from 'zod';
import { text } from './text.ts';

/** Notifications (issue 9): e-mail at once for errors, a daily digest of actions, and an outgoing webhook. */

export const NOTIFICATION_LANGUAGES = ['en', 'th'] as const;
export const WEBHOOK_URL_MAX = 2048;
/** The header carrying `sha256=<hex HMAC-SHA256 of the raw body>` keyed with the user's webhook secret. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-adpilot-signature';

export const NOTIFICATION_MESSAGES = {
  webhookUrl: 'Enter a web address starting with https:// or http://',
  webhookUrlTooLong: `The web address must be at most ${WEBHOOK_URL_MAX} characters`,
  webhookUrlCredentials: 'The web address must not contain a user name or password',
  webhookUrlPrivate: 'This address points to a private or local network, which AdPilot does not call',
  timeZone: 'Unknown time zone',
  noWebhook: 'Set a webhook address first',
  digestHour: 'Choose an hour from 0 to 23',
  emailNotVerified: 'Confirm your e-mail address first: open the link AdPilot sent to it',
  alreadyVerified: 'Your e-mail address is already confirmed',
  tooManyConfirmations: 'Too many confirmation e-mails. Please try again later.',
  tooManyTests: 'Too many test notifications. Please try again later.',
  verificationInvalid: 'This confirmation link is invalid or has expired.',
  verificationDone: 'Your e-mail address is confirmed. AdPilot can now send your notifications to it.',
} as const;

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * A webhook address as the user types it: http(s) only, no credentials in it. Whether its host is a private
 * address is decided on the server, where names are resolved (ADR 0039).
 */
export function webhookUrl() {
  return text({ trim: true })
    .max(WEBHOOK_URL_MAX, NOTIFICATION_MESSAGES.webhookUrlTooLong)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
      } catch {
        return false;
      }
    }, NOTIFICATION_MESSAGES.webhookUrl)
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.username === '' && url.password === '';
      } catch {
        return true;
      }
    }, NOTIFICATION_MESSAGES.webhookUrlCredentials);
}

export const notificationSettingsSchema = z.object({
  /** Where mail goes: the account's address. */
  email: z.string(),
  /** How mail leaves: an SMTP server, or the operator's outbox when none is configured. */
  mailDelivery: z.enum(['smtp', 'outbox']),
  /** Whether `email` was confirmed through a link sent to it; no notification mail goes to it until then. */
  emailVerified: z.boolean(),
  /** When the latest confirmation link still usable was sent to `email` (ISO), or null. */
  verificationSentAt: z.string().nullable(),
  emailErrors: z.boolean(),
  emailDigest: z.boolean(),
  /** The hour (0–23, in `timeZone`) the daily digest of the previous day is sent. */
  digestHour: z.number().int(),
  language: z.enum(NOTIFICATION_LANGUAGES),
  timeZone: z.string(),
  webhook: z
    .object({
      url: z.string(),
      /** The secret's last characters only; the whole secret is shown once, when made. */
      secretHint: z.string(),
    })
    .nullable(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const updateNotificationSettingsSchema = z.strictObject({
  emailErrors: z.boolean().optional(),
  emailDigest: z.boolean().optional(),
  digestHour: z
    .number()
    .int()
    .min(0, NOTIFICATION_MESSAGES.digestHour)
    .max(23, NOTIFICATION_MESSAGES.digestHour)
    .optional(),
  language: z.enum(NOTIFICATION_LANGUAGES).optional(),
  timeZone: text({ trim: true })
    .max(64, NOTIFICATION_MESSAGES.timeZone)
    .refine(isTimeZone, NOTIFICATION_MESSAGES.timeZone)
    .optional(),
  /** null removes the webhook (and its secret). */
  webhookUrl: webhookUrl().nullable().optional(),
});
export type UpdateNotificationSettings = z.infer<typeof updateNotificationSettingsSchema>;

/** The settings after a change; `webhookSecret` only when a new secret was made (shown once, never again). */
export const notificationSettingsSavedSchema = notificationSettingsSchema.extend({
  webhookSecret: z.string().optional(),
});

export const webhookSecretSchema = z.object({ webhookSecret: z.string() });

/** The confirmation page's request: the token of the link (ADR 0054). */
export const confirmEmailRequestSchema = z.strictObject({
  token: text({ required: NOTIFICATION_MESSAGES.verificationInvalid })
    .min(1, NOTIFICATION_MESSAGES.verificationInvalid)
    .max(512),
});
export type ConfirmEmailRequest = z.infer<typeof confirmEmailRequestSchema>;

export const notificationTestRequestSchema = z.strictObject({ channel: z.enum(['email', 'webhook']) });

/** What a test send did: the receiver's HTTP status for a webhook, or the failure's code. */
export const notificationTestResultSchema = z.object({
  channel: z.enum(['email', 'webhook']),
  delivered: z.boolean(),
  status: z.number().int().nullable(),
  /** When not delivered: one of WEBHOOK_FAILURE_CODES. */
  code: z.string().nullable(),
});
export type NotificationTestResult = z.infer<typeof notificationTestResultSchema>;

/** Why a webhook delivery failed; stored as codes, rendered in the page's language. */
export const WEBHOOK_FAILURE_CODES = ['http_status', 'timeout', 'network', 'refused_address'] as const;
export type WebhookFailureCode = (typeof WEBHOOK_FAILURE_CODES)[number];

/** The activity entry written when a webhook delivery gave up after its retries. */
export const NOTIFICATION_ACTIVITY_CODES = { webhookFailed: 'notification_webhook_failed' } as const;
