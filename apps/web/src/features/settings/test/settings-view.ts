import { SETTINGS_FIELDS, type SettingsView } from '@adpilot/contracts';

/** What GET /api/settings answers on a fresh embedded instance, with `overrides` on top. */
export function buildView(overrides: Partial<SettingsView> = {}): SettingsView {
  const fields = Object.fromEntries(
    SETTINGS_FIELDS.map((field) => [
      field,
      {
        source: 'default',
        readOnly: false,
        secret: ['openaiApiKey', 'facebookAppSecret', 'stripeSecretKey', 'stripeWebhookSecret', 'smtpPass'].includes(
          field,
        ),
        set: false,
      },
    ]),
  ) as SettingsView['fields'];
  return {
    aiProvider: 'builtin',
    openaiApiKey: '',
    openaiBaseUrl: '',
    openaiModel: '',
    facebookAppId: '',
    facebookAppSecret: '',
    stripeSecretKey: '',
    stripePublishableKey: '',
    stripeWebhookSecret: '',
    mongodbUri: 'embedded PGlite in ./data/pglite',
    smtpHost: '',
    smtpPort: '',
    smtpUser: '',
    smtpPass: '',
    fields,
    database: { kind: 'pglite', readOnly: true },
    providers: { ai: 'builtin', meta: 'sandbox', billing: 'local', mail: 'outbox' },
    ...overrides,
  };
}
