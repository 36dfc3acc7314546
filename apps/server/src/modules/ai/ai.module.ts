import type { Transactions } from '@adpilot/db';
import type { SettingsReader } from '../../config/runtime-settings.ts';
import {
  aiSettingsFrom,
  createAiProviderResolver,
  type AiSettingsSource,
} from '../../providers/ai/ai-provider-factory.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { PlanLimits } from '../subscription/plan-limits.ts';
import type { OwnAccounts } from './account-summary.ts';
import type { AiQuota } from './ai-quota.ts';
import { aiRoutes } from './ai.routes.ts';
import { AiService } from './ai.service.ts';
import { WaitlistRepository } from './waitlist.repository.ts';

export interface AiOptions {
  /** The plan's monthly AI requests (billing's limits seam). */
  quota?: AiQuota;
  /** Where the provider settings are read on each request (by default the settings seam). */
  settings?: AiSettingsSource;
}

export interface AiModuleDeps {
  transactions: Transactions;
  /** The settings seam the provider settings are read from, with AI_TIMEOUT_MS. */
  settings: SettingsReader;
  timeoutMs: number;
  /** The plan's AI requests and fastest rule check (subscription's limits). */
  limits: Pick<PlanLimits, 'aiQuota' | 'rulesIn'>;
  /** The user's own ad accounts (the ad-accounts service). */
  accounts: OwnAccounts;
}

/** The AI tools (spec §5) and the automation waitlist. Other modules need nothing of it: it exports its routes. */
export function createAiModule(deps: AiModuleDeps, options: AiOptions = {}) {
  const { transactions, limits } = deps;
  const settings = options.settings ?? aiSettingsFrom(deps.settings, deps.timeoutMs);
  const service = new AiService({
    providers: createAiProviderResolver(settings),
    settings,
    quota: options.quota ?? limits.aiQuota,
    ruleChecks: {
      fastestCheckMinutes: (scope) =>
        transactions.tenant(scope, async (tx) => (await limits.rulesIn(tx)).fastestCheckMinutes),
    },
    accounts: deps.accounts,
    transactions,
    waitlist: new WaitlistRepository(),
  });
  return { service, routes: bindRoutes(aiRoutes, { ai: service }) };
}
