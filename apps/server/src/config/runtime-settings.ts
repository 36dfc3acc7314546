import { SETTINGS_FIELDS, type AiProvider, type SettingsField, type SettingsSource } from '@adpilot/contracts';
import type { Config } from './env.ts';

/** The OpenAI-compatible endpoint's defaults when Settings and the environment leave them empty. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';
export const SMTP_DEFAULT_PORT = 587;

/** The providers' configuration as it stands now: environment first, then Settings, then the embedded defaults. */
export interface ProviderSettings {
  ai: { provider: AiProvider; apiKey?: string; baseUrl: string; model: string };
  meta: { mode: 'sandbox' | 'live'; appId?: string; appSecret?: string };
  stripe: { mode: 'local' | 'stripe'; secretKey?: string; publishableKey?: string; webhookSecret?: string };
  mail: { mode: 'outbox' | 'smtp'; host?: string; port: number; user?: string; pass?: string; secure: boolean };
}

/** Field name → plain value as saved in Settings (secrets already opened). */
export type SavedSettings = Partial<Record<SettingsField, string>>;

export interface ResolvedSettings {
  providers: ProviderSettings;
  /** Every field's plain value after precedence, and where it came from. */
  values: Partial<Record<SettingsField, string>>;
  sources: Record<SettingsField, SettingsSource>;
}

/**
 * The one seam through which the Meta, AI, billing and mail providers read their configuration. `current()` is
 * cheap (a value held in memory); it changes when an administrator saves Settings in any process of the instance.
 */
export interface SettingsReader {
  current(): ProviderSettings;
  /** Called after every change, in every process; returns the unsubscribe function. */
  subscribe(listener: (settings: ProviderSettings) => void): () => void;
}

/** Applies precedence: a variable set in the environment wins over a saved value, which wins over the default. */
export function resolveSettings(
  config: Pick<Config, 'settingsEnv' | 'smtpSecure'>,
  saved: SavedSettings,
): ResolvedSettings {
  const values: Partial<Record<SettingsField, string>> = {};
  const sources = {} as Record<SettingsField, SettingsSource>;
  for (const field of SETTINGS_FIELDS) {
    const fromEnv = config.settingsEnv[field];
    if (fromEnv) {
      values[field] = fromEnv;
      sources[field] = 'environment';
    } else if (saved[field]) {
      values[field] = saved[field];
      sources[field] = 'saved';
    } else sources[field] = 'default';
  }
  // An OpenAI key alone (the usual environment of an OpenAI user) means the OpenAI provider.
  const aiProvider: AiProvider =
    values.aiProvider === 'openai' || values.aiProvider === 'builtin'
      ? values.aiProvider
      : values.openaiApiKey
        ? 'openai'
        : 'builtin';
  const metaLive = Boolean(values.facebookAppId && values.facebookAppSecret);
  return {
    values,
    sources,
    providers: {
      ai: {
        provider: aiProvider,
        apiKey: values.openaiApiKey,
        baseUrl: (values.openaiBaseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, ''),
        model: values.openaiModel ?? OPENAI_DEFAULT_MODEL,
      },
      meta: metaLive
        ? { mode: 'live', appId: values.facebookAppId, appSecret: values.facebookAppSecret }
        : { mode: 'sandbox' },
      stripe: {
        mode: values.stripeSecretKey ? 'stripe' : 'local',
        secretKey: values.stripeSecretKey,
        publishableKey: values.stripePublishableKey,
        webhookSecret: values.stripeWebhookSecret,
      },
      mail: {
        mode: values.smtpHost ? 'smtp' : 'outbox',
        host: values.smtpHost,
        port: values.smtpPort ? Number(values.smtpPort) : SMTP_DEFAULT_PORT,
        user: values.smtpUser,
        pass: values.smtpPass,
        secure: config.smtpSecure,
      },
    },
  };
}

/** A reader that never changes: the environment and defaults only (tests of one provider, tools). */
export function fixedSettings(providers: ProviderSettings): SettingsReader {
  return { current: () => providers, subscribe: () => () => undefined };
}
