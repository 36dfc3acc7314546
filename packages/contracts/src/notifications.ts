import { z } from 'zod';
import { text } from './text.ts';

/** Notifications (issue 9): e-mail at once for errors, a daily digest of actions, and an outgoing webhook. */

export const NOTIFICATION_LANGUAGES = ['en', 'th'] as const;
export const WEBHOOK_URL_MAX = 2048;
/** The header carrying `sha256=<hex HMAC-SHA256 of the raw body>` keyed with the user's webhook secret. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-adpilot-signature';
/**
 * Where a LINE push goes: a user (`U…`), group (`C…`) or multi-person chat (`R…`) id, one letter and 32 lowercase
 * hex digits (ADR 0075).
 */
export const LINE_TARGET_PATTERN = /^[UCR][0-9a-f]{32}$/;
/** A channel access token as the LINE Developers console shows it: base64-like characters, no spaces. */
export const LINE_TOKEN_PATTERN = /^[A-Za-z0-9+/=._-]+$/;
export const LINE_TOKEN_MAX = 1024;
/** The most a LINE text message may hold, in UTF-16 code units (how LINE counts). */
export const LINE_TEXT_MAX = 5000;
/** The channels a test can be sent on. */
export const NOTIFICATION_CHANNELS = ['email', 'webhook', 'line'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

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
  lineTarget: 'Enter a LINE user, group or chat ID: U, C or R followed by 32 characters from 0–9 and a–f',
  lineToken: 'Paste the channel access token from the LINE Developers console (no spaces)',
  lineTokenTooLong: `The channel access token must be at most ${LINE_TOKEN_MAX} characters`,
  noLine: 'Set a LINE channel access token and a LINE ID first',
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

/** A LINE target as the user types it; spaces around it are dropped. */
export function lineTarget() {
  return text({ trim: true }).regex(LINE_TARGET_PATTERN, NOTIFICATION_MESSAGES.lineTarget);
}

/** A channel access token as pasted; spaces around it are dropped. */
export function lineToken() {
  return text({ trim: true })
    .max(LINE_TOKEN_MAX, NOTIFICATION_MESSAGES.lineTokenTooLong)
    .regex(LINE_TOKEN_PATTERN, NOTIFICATION_MESSAGES.lineToken);
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
  /** The LINE channel: its target, the token's last characters (the token itself is never answered), on or off. */
  line: z.object({
    target: z.string().nullable(),
    tokenHint: z.string().nullable(),
    enabled: z.boolean(),
  }),
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
  /** A new channel access token (sealed at rest); null removes the LINE channel, its token and its target. */
  lineToken: lineToken().nullable().optional(),
  lineTarget: lineTarget().optional(),
  /** Turns LINE on (from now: nothing before is sent) or off; on needs a token and a target. */
  line: z.boolean().optional(),
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

export const notificationTestRequestSchema = z.strictObject({ channel: z.enum(NOTIFICATION_CHANNELS) });

/** What a test send did: the receiver's HTTP status for a webhook or LINE, or the failure's code. */
export const notificationTestResultSchema = z.object({
  channel: z.enum(NOTIFICATION_CHANNELS),
  delivered: z.boolean(),
  status: z.number().int().nullable(),
  /** When not delivered: one of WEBHOOK_FAILURE_CODES (e-mail, webhook) or LINE_FAILURE_CODES (LINE). */
  code: z.string().nullable(),
});
export type NotificationTestResult = z.infer<typeof notificationTestResultSchema>;

/** Why a webhook delivery failed; stored as codes, rendered in the page's language. */
export const WEBHOOK_FAILURE_CODES = ['http_status', 'timeout', 'network', 'refused_address'] as const;
export type WebhookFailureCode = (typeof WEBHOOK_FAILURE_CODES)[number];

/**
 * Why a LINE push failed: 401 `unauthorized` (the token), 403 `forbidden` (the channel may not message the target),
 * 429 `quota` (the month's messages or the rate limit), another 4xx `rejected`, 5xx `server`, `timeout`, `network`.
 */
export const LINE_FAILURE_CODES = [
  'unauthorized',
  'forbidden',
  'quota',
  'rejected',
  'server',
  'timeout',
  'network',
] as const;
export type LineFailureCode = (typeof LINE_FAILURE_CODES)[number];

/**
 * The activity entries written when a delivery gave up: a webhook after its retries; LINE at once for a refused
 * token, target or quota (each its own code, since each asks something else of the user), else after its retries.
 */
export const NOTIFICATION_ACTIVITY_CODES = {
  webhookFailed: 'notification_webhook_failed',
  lineUnauthorized: 'notification_line_unauthorized',
  lineForbidden: 'notification_line_forbidden',
  lineQuota: 'notification_line_quota',
  lineFailed: 'notification_line_failed',
} as const;
