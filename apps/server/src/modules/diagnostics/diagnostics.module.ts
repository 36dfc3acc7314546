import type { DatabaseHandle } from '@adpilot/db';
import type { SettingsReader } from '../../config/runtime-settings.ts';
import type { Config } from '../../config/env.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { AccessTokens, AttemptLimiter, AuthService } from '../auth/index.ts';
import { DiagnosticsRepository } from './diagnostics.repository.ts';
import { diagnosticsRoutes } from './diagnostics.routes.ts';
import { DiagnosticsService, type DiagnosticsServiceDeps } from './diagnostics.service.ts';

export interface DiagnosticsModuleDeps {
  config: Config;
  database: DatabaseHandle;
  settings: SettingsReader;
  /** The auth module's public API: the checks sign a throwaway session in and count attempts. */
  auth: { service: AuthService; accessTokens: AccessTokens; limiter: AttemptLimiter };
  /** The subscription module's API: a sample of the plan catalogue. */
  plans: DiagnosticsServiceDeps['plans'];
  appVersion: string;
  now: () => Date;
}

/** The administrator's self-checks (DIAGNOSTICS_ENABLED). It exports its routes. */
export function createDiagnosticsModule(deps: DiagnosticsModuleDeps) {
  const { config, database, auth } = deps;
  const service = new DiagnosticsService({
    enabled: config.diagnosticsEnabled,
    config,
    database: { kind: database.kind },
    transactions: database,
    repository: new DiagnosticsRepository(),
    settings: deps.settings,
    plans: deps.plans,
    auth: auth.service,
    accessTokens: auth.accessTokens,
    limiter: auth.limiter,
    appVersion: deps.appVersion,
    now: deps.now,
  });
  return { service, routes: bindRoutes(diagnosticsRoutes, { diagnostics: service }) };
}
