import {
  CONNECTION_SERVICES,
  isSecretSettingsField,
  SECRET_MASK,
  SETTINGS_FIELDS,
  SETTINGS_MESSAGES,
  type ConnectionResult,
  type ConnectionService,
  type ConnectionStatusMap,
  type FieldError,
  type SettingsField,
  type SettingsUpdate,
  type SettingsView,
} from '@adpilot/contracts';
import type { DatabaseKind, Transactions } from '@adpilot/db';
import { resolveSettings, type SavedSettings } from '../../config/runtime-settings.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import { pinnedFetch } from '../../lib/pinned-fetch.ts';
import type { WebhookAddressPolicy } from '../notifications/index.ts';
import { checkConnection, type ConnectionCheckDeps } from './connection-checks.ts';
import { describeOutcome, statusOf } from './settings.presenter.ts';
import type { SettingsRepository, SettingWrite } from './settings.repository.ts';
import type { SettingsStore } from './settings.store.ts';

export interface SettingsServiceDeps {
  store: SettingsStore;
  transactions: Transactions;
  repository: SettingsRepository;
  secretBox: SecretBox;
  config: Parameters<typeof resolveSettings>[0];
  database: { kind: DatabaseKind; description: string };
  checks: Omit<ConnectionCheckDeps, 'aiFetch'>;
  /** The webhook address policy (notifications'): where AdPilot may call for a person, with its allow-list. */
  addresses: Pick<WebhookAddressPolicy, 'acceptsUrl' | 'resolve'>;
}

/** The instance administrator's Settings: the view (secrets masked), saving, and the connection tests. */
export class SettingsService {
  constructor(private readonly deps: SettingsServiceDeps) {}

  view(): SettingsView {
    const { values, sources, providers } = this.deps.store.details();
    const shown = (field: SettingsField) => {
      const value = values[field];
      if (!value) return '';
      return isSecretSettingsField(field) ? SECRET_MASK : value;
    };
    const fields = Object.fromEntries(
      SETTINGS_FIELDS.map((field) => [
        field,
        {
          source: sources[field],
          readOnly: sources[field] === 'environment',
          secret: isSecretSettingsField(field),
          set: Boolean(values[field]),
        },
      ]),
    ) as SettingsView['fields'];
    return {
      aiProvider: providers.ai.provider,
      openaiApiKey: shown('openaiApiKey'),
      openaiBaseUrl: shown('openaiBaseUrl'),
      openaiModel: shown('openaiModel'),
      facebookAppId: shown('facebookAppId'),
      facebookAppSecret: shown('facebookAppSecret'),
      stripeSecretKey: shown('stripeSecretKey'),
      stripePublishableKey: shown('stripePublishableKey'),
      stripeWebhookSecret: shown('stripeWebhookSecret'),
      mongodbUri: this.deps.database.description,
      smtpHost: shown('smtpHost'),
      smtpPort: values.smtpPort ?? '',
      smtpUser: shown('smtpUser'),
      smtpPass: shown('smtpPass'),
      fields,
      database: { kind: this.deps.database.kind, readOnly: true },
      providers: {
        ai: providers.ai.provider,
        meta: providers.meta.mode,
        billing: providers.stripe.mode,
        mail: providers.mail.mode,
      },
    };
  }

  /**
   * Saves what the form changed. Secrets sent empty or as the mask are kept; `null` clears one. A field pinned by the
   * environment, and the database connection, may come back unchanged but not changed. Every process applies the
   * result without a restart (the store reloads here at once, elsewhere on the notification).
   */
  async update(userId: string, input: SettingsUpdate): Promise<SettingsView> {
    const current = this.deps.store.details();
    const shownNow = this.view();
    const errors: FieldError[] = [];
    const saved: SavedSettings = {};
    for (const field of SETTINGS_FIELDS) if (current.sources[field] === 'saved') saved[field] = current.values[field];

    const write: SettingWrite[] = [];
    const remove: string[] = [];
    for (const field of SETTINGS_FIELDS) {
      const sent = input[field];
      if (sent === undefined) continue;
      const secret = isSecretSettingsField(field);
      const keep = secret && (sent === '' || sent === SECRET_MASK);
      if (current.sources[field] === 'environment') {
        if (!keep && sent !== shownNow[field]) errors.push({ field, message: SETTINGS_MESSAGES.fromEnvironment });
        continue;
      }
      if (keep) continue;
      if (sent === null || sent === '') {
        remove.push(field);
        delete saved[field];
      } else {
        write.push({ key: field, value: secret ? this.deps.secretBox.encrypt(sent) : sent, sealed: secret });
        saved[field] = sent;
      }
    }
    const baseUrl = write.find((item) => item.key === 'openaiBaseUrl')?.value;
    if (baseUrl !== undefined && !this.acceptsAddress(baseUrl))
      errors.push({ field: 'openaiBaseUrl', message: SETTINGS_MESSAGES.privateAddress });
    if (input.mongodbUri && input.mongodbUri !== shownNow.mongodbUri)
      errors.push({ field: 'mongodbUri', message: SETTINGS_MESSAGES.databaseReadOnly });

    const next = resolveSettings(this.deps.config, saved);
    if (next.providers.ai.provider === 'openai' && !next.values.openaiApiKey)
      errors.push({ field: 'openaiApiKey', message: SETTINGS_MESSAGES.openaiKeyRequired });
    if (Boolean(next.values.facebookAppId) !== Boolean(next.values.facebookAppSecret))
      errors.push({
        field: next.values.facebookAppId ? 'facebookAppSecret' : 'facebookAppId',
        message: SETTINGS_MESSAGES.facebookPair,
      });
    if (errors.length > 0)
      throw new AppError('VALIDATION_ERROR', errors[0]?.message ?? 'Invalid settings', 400, errors);

    await this.deps.transactions.system('settings: save', (tx) =>
      this.deps.repository.save(tx, { write, remove, by: userId }),
    );
    await this.deps.store.reload();
    return this.view();
  }

  /** A literal private address or a local name is refused as a webhook's is (ADR 0039), its allow-list aside. */
  private acceptsAddress(url: string): boolean {
    try {
      return this.deps.addresses.acceptsUrl(url);
    } catch {
      return false;
    }
  }

  /**
   * At a connection test a saved address is resolved, every answer checked and the connection pinned to it, as at
   * every AI call (ADR 0097), so a name pointing at a private address is refused too; the environment's address is
   * the operator's and is called as it is.
   */
  private aiFetch(): typeof fetch {
    if (this.deps.store.details().sources.openaiBaseUrl !== 'saved') return this.deps.checks.fetch;
    return pinnedFetch((url) => this.deps.addresses.resolve(url));
  }

  async testConnection(service: ConnectionService): Promise<ConnectionResult> {
    const began = performance.now();
    const outcome = await checkConnection(service, this.deps.store.current(), {
      ...this.deps.checks,
      aiFetch: this.aiFetch(),
    });
    const latencyMs = Math.round(performance.now() - began);
    return {
      service,
      success: outcome.code === 'ok',
      status: statusOf(outcome.code),
      code: outcome.code,
      ...(outcome.detail ? { detail: outcome.detail } : {}),
      message: describeOutcome(service, outcome),
      latencyMs,
    };
  }

  /** Every service checked at once: spec §3's status map. */
  async testAll(): Promise<ConnectionStatusMap> {
    const results = await Promise.all(CONNECTION_SERVICES.map((service) => this.testConnection(service)));
    return Object.fromEntries(results.map((result) => [result.service, result.status])) as ConnectionStatusMap;
  }
}
