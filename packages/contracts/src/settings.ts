import { z } from 'zod';
import { text } from './text.ts';
import { SETTINGS_MESSAGES } from './validation-messages.ts';

export const AI_PROVIDERS = ['builtin', 'openai'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

/** Spec §3's settings object, plus the AI provider, base URL and model of any OpenAI-compatible server. */
export const SETTINGS_FIELDS = [
  'aiProvider',
  'openaiApiKey',
  'openaiBaseUrl',
  'openaiModel',
  'facebookAppId',
  'facebookAppSecret',
  'stripeSecretKey',
  'stripePublishableKey',
  'stripeWebhookSecret',
  'smtpHost',
  'smtpPort',
  'smtpUser',
  'smtpPass',
] as const;
export type SettingsField = (typeof SETTINGS_FIELDS)[number];

/** Stored encrypted, answered masked, replaced only when a new value is typed. */
export const SECRET_SETTINGS_FIELDS = [
  'openaiApiKey',
  'facebookAppSecret',
  'stripeSecretKey',
  'stripeWebhookSecret',
  'smtpPass',
] as const satisfies readonly SettingsField[];

export const isSecretSettingsField = (field: string): boolean =>
  (SECRET_SETTINGS_FIELDS as readonly string[]).includes(field);

/** What a set secret is answered as: never any character of the secret itself. */
export const SECRET_MASK = '••••••••';

/** Where a field's value comes from: the environment (read-only), Settings, or nowhere (the default applies). */
export const SETTINGS_SOURCES = ['environment', 'saved', 'default'] as const;
export type SettingsSource = (typeof SETTINGS_SOURCES)[number];

export const settingsFieldInfoSchema = z.object({
  source: z.enum(SETTINGS_SOURCES),
  readOnly: z.boolean(),
  secret: z.boolean(),
  /** Whether the field holds a value (a masked secret included). */
  set: z.boolean(),
});

/**
 * GET /api/settings: the spec's flat object of fields to fill the form (secrets masked), `mongodbUri` the database
 * connection shown read-only with the password hidden, and per field where its value comes from.
 */
export const settingsViewSchema = z.object({
  aiProvider: z.enum(AI_PROVIDERS),
  openaiApiKey: z.string(),
  openaiBaseUrl: z.string(),
  openaiModel: z.string(),
  facebookAppId: z.string(),
  facebookAppSecret: z.string(),
  stripeSecretKey: z.string(),
  stripePublishableKey: z.string(),
  stripeWebhookSecret: z.string(),
  mongodbUri: z.string(),
  smtpHost: z.string(),
  smtpPort: z.string(),
  smtpUser: z.string(),
  smtpPass: z.string(),
  fields: z.record(z.enum(SETTINGS_FIELDS), settingsFieldInfoSchema),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), readOnly: z.literal(true) }),
  /** The providers in use now (after environment, Settings and defaults). */
  providers: z.object({
    ai: z.enum(AI_PROVIDERS),
    meta: z.enum(['sandbox', 'live']),
    billing: z.enum(['local', 'stripe']),
    mail: z.enum(['outbox', 'smtp']),
  }),
});
export type SettingsView = z.infer<typeof settingsViewSchema>;

const single = text({ trim: true }).pipe(z.string().max(2000));
/** Empty clears the field (the default applies again). */
const optionalText = single.optional();

/**
 * PUT /api/settings: the form's fields. A secret sent empty or as the mask keeps the stored one; `null` clears it.
 * A field set in the environment, and `mongodbUri`, may be sent unchanged (the form sends all fields) but not changed.
 */
export const settingsUpdateSchema = z.strictObject({
  aiProvider: z.enum(AI_PROVIDERS).optional(),
  openaiApiKey: single.nullable().optional(),
  openaiBaseUrl: optionalText.refine((v) => !v || /^https?:\/\/[^\s/]+/i.test(v), SETTINGS_MESSAGES.invalidUrl),
  openaiModel: optionalText,
  facebookAppId: optionalText.refine((v) => !v || /^[A-Za-z0-9_-]{1,64}$/.test(v), SETTINGS_MESSAGES.facebookAppId),
  facebookAppSecret: single.nullable().optional(),
  stripeSecretKey: single
    .refine((v) => v === '' || v === SECRET_MASK || /^(sk|rk)_/.test(v), SETTINGS_MESSAGES.stripeSecretKey)
    .nullable()
    .optional(),
  stripePublishableKey: optionalText.refine((v) => !v || /^pk_/.test(v), SETTINGS_MESSAGES.stripePublishableKey),
  stripeWebhookSecret: single
    .refine((v) => v === '' || v === SECRET_MASK || /^whsec_/.test(v), SETTINGS_MESSAGES.stripeWebhookSecret)
    .nullable()
    .optional(),
  mongodbUri: optionalText,
  smtpHost: optionalText.refine((v) => !v || /^[A-Za-z0-9.:[\]-]+$/.test(v), 'Must be a host name'),
  smtpPort: z
    .union([z.number(), single])
    .optional()
    .refine((v) => v === undefined || v === '' || /^\d{1,5}$/.test(String(v)), SETTINGS_MESSAGES.invalidPort)
    .transform((v) => (v === undefined ? undefined : String(v)))
    .refine((v) => !v || (Number(v) >= 1 && Number(v) <= 65535), SETTINGS_MESSAGES.invalidPort),
  smtpUser: optionalText.refine((v) => !v || z.email().safeParse(v).success, SETTINGS_MESSAGES.invalidEmail),
  smtpPass: single.nullable().optional(),
});
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

/** The services Settings can test: spec §3's status keys, with `database` for the spec's `mongodb`. */
export const CONNECTION_SERVICES = ['openai', 'stripe', 'facebook', 'database', 'smtp'] as const;
export type ConnectionService = (typeof CONNECTION_SERVICES)[number];
/** The spec's POST path names the database `mongodb`; both are accepted. */
export const connectionServiceParamSchema = z.strictObject({
  service: z
    .enum([...CONNECTION_SERVICES, 'mongodb'])
    .transform((service): ConnectionService => (service === 'mongodb' ? 'database' : service)),
});

export const CONNECTION_STATUSES = ['connected', 'disconnected', 'not_configured'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** Why a test failed (or `ok`); rendered on the web in English and Thai, with the upstream's own words as `detail`. */
export const CONNECTION_CODES = [
  'ok',
  'not_configured',
  'unreachable',
  'timeout',
  'auth_rejected',
  'model_not_found',
  'bad_response',
  'upstream_error',
] as const;
export type ConnectionCode = (typeof CONNECTION_CODES)[number];

export const connectionResultSchema = z.object({
  service: z.enum(CONNECTION_SERVICES),
  success: z.boolean(),
  status: z.enum(CONNECTION_STATUSES),
  code: z.enum(CONNECTION_CODES),
  /** What the service said (an upstream error message, a model count), never a secret. */
  detail: z.string().optional(),
  /** The result in English, for API readers; the web renders `code` and `detail` in the user's language. */
  message: z.string(),
  latencyMs: z.number(),
});
export type ConnectionResult = z.infer<typeof connectionResultSchema>;

export const connectionStatusMapSchema = z.record(z.enum(CONNECTION_SERVICES), z.enum(CONNECTION_STATUSES));
export type ConnectionStatusMap = z.infer<typeof connectionStatusMapSchema>;
