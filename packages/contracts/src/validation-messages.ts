/**
 * The validation texts the contracts' schemas answer with, and what they are built from, without the schemas: the
 * web's forms map each text to its translation key on every page that shows a form, before (and without) loading
 * zod (ADR 0138). The schemas' own modules re-use them from here.
 */

/** The exact validation texts of spec §5; the server answers with the same ones. */
export const AUTH_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email',
  passwordRequired: 'Password is required',
  nameRequired: 'Name is required',
  nameMin: 'Name must be at least 2 characters',
  nameMax: 'Name must be at most 100 characters',
  passwordMin: 'Password must be at least 8 characters',
  passwordMax: 'Password must be at most 128 characters',
  passwordLower: 'Password must contain at least one lowercase letter',
  passwordUpper: 'Password must contain at least one uppercase letter',
  passwordNumber: 'Password must contain at least one number',
  confirmRequired: 'Please confirm your password',
  passwordsMatch: 'Passwords must match',
  tokenRequired: 'Token is required',
  refreshTokenRequired: 'Refresh token is required',
  loginCodeInvalid: 'The sign-in code is 6 digits',
} as const;

/** Spec §5: the OpenAI provider chosen without a key. */
export const SETTINGS_MESSAGES = {
  openaiKeyRequired: 'OpenAI API Key is required for AI features',
  facebookPair: 'The Facebook app id and app secret are set together',
  fromEnvironment: 'Set in the environment: change it there and restart',
  databaseReadOnly: 'The database connection is read-only here: set DATABASE_URL and restart the server',
  invalidUrl: 'Must be an http(s) address',
  privateAddress: 'This address points to a private or local network, which AdPilot does not call',
  invalidPort: 'Must be a port between 1 and 65535',
  invalidEmail: 'Invalid email',
  facebookAppId: 'A Facebook app id is letters, digits, dashes or underscores',
  stripeSecretKey: 'A Stripe secret key starts with sk_ or rk_',
  stripePublishableKey: 'A Stripe publishable key starts with pk_',
  stripeWebhookSecret: 'A Stripe webhook secret starts with whsec_',
} as const;

export const REPORT_FREQUENCIES = ['weekly', 'monthly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

export const REPORT_LANGUAGES = ['en', 'th'] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

/** A schedule mails at most this many addresses. */
export const REPORT_RECIPIENTS_MAX = 20;
/** A workspace keeps at most this many schedules. */
export const REPORT_SCHEDULES_MAX = 10;
/** "Send now" of one schedule, at most this many times an hour (outside addresses are someone's inbox). */
export const REPORT_SENDS_PER_HOUR = 5;

export const REPORT_SCHEDULE_MESSAGES = {
  notFound: 'Report schedule not found',
  frequencyInvalid: `Frequency must be one of ${REPORT_FREQUENCIES.join(', ')}`,
  languageInvalid: `Language must be one of ${REPORT_LANGUAGES.join(', ')}`,
  recipientsRequired: 'Add at least one recipient',
  recipientsTooMany: `A report goes to at most ${REPORT_RECIPIENTS_MAX} addresses`,
  recipientInvalid: 'Each recipient must be a valid e-mail address',
  recipientsDuplicate: 'Each recipient may appear only once',
  adAccountInvalid: 'Unknown ad account',
  adAccountsEmpty: 'Choose at least one ad account, or leave the choice out for all of them',
  tooMany: `A workspace keeps at most ${REPORT_SCHEDULES_MAX} report schedules`,
  sendsTooMany: `A report can be sent now at most ${REPORT_SENDS_PER_HOUR} times an hour`,
  nothingToChange: 'Nothing to change',
} as const;
