import type { DatabaseHandle } from '@adpilot/db';
import type { Config } from '../../config/env.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import { smtpMailerFor } from '../../providers/mail/mailer.ts';
import type { MetaProvider } from '../../providers/meta/meta-provider.ts';
import type { WebhookAddressPolicy } from '../notifications/index.ts';
import { CHECK_TIMEOUT_MS } from './connection-checks.ts';
import { SettingsRepository } from './settings.repository.ts';
import { settingsRoutes } from './settings.routes.ts';
import { SettingsService } from './settings.service.ts';
import type { SettingsStore } from './settings.store.ts';

/** The database connection as Settings shows it: where the data lives, never the password. */
function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `embedded PGlite in ${config.dataDir}/pglite`;
  try {
    const url = new URL(config.databaseUrl);
    if (url.password) url.password = '****';
    return url.toString();
  } catch {
    return 'postgres (DATABASE_URL)';
  }
}

export interface SettingsModuleDeps {
  /** The settings seam (shared infrastructure, built before every provider that reads it). */
  store: SettingsStore;
  database: DatabaseHandle;
  secretBox: SecretBox;
  config: Config;
  /** Settings' Meta connection test. */
  meta: Pick<MetaProvider, 'verifyApp'>;
  /** The webhook address policy (the notifications module's): the AI server's saved address is held to it. */
  addresses: Pick<WebhookAddressPolicy, 'acceptsUrl' | 'resolve'>;
}

/** The instance administrator's Settings page and its connection tests. It exports its routes. */
export function createSettingsModule(deps: SettingsModuleDeps) {
  const { store, database, secretBox, config, meta } = deps;
  const repository = new SettingsRepository();
  const service = new SettingsService({
    store,
    transactions: database,
    repository,
    secretBox,
    config,
    database: { kind: database.kind, description: describeDatabase(config) },
    addresses: deps.addresses,
    checks: {
      fetch: (...args) => globalThis.fetch(...args),
      stripeApiUrl: config.stripeApiUrl,
      verifyMetaApp: (timeoutMs) => meta.verifyApp(timeoutMs),
      selectOne: () => database.system('settings: connection test', (tx) => repository.selectOne(tx)),
      verifySmtp: async (mail) => {
        const smtp = smtpMailerFor(mail, config.mailFrom, CHECK_TIMEOUT_MS);
        if (!smtp) throw new Error('no SMTP server configured');
        try {
          await smtp.verify();
        } finally {
          smtp.close();
        }
      },
    },
  });
  return { service, routes: bindRoutes(settingsRoutes, { settings: service }) };
}
