import type { Transactions } from '@adpilot/db';
import type { ResolvedSettings, SettingsReader } from '../../config/runtime-settings.ts';
import {
  aiSettingsFrom,
  createAiProviderResolver,
  type AiSettingsSource,
} from '../../providers/ai/ai-provider-factory.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import { pinnedFetch } from '../../lib/pinned-fetch.ts';
import type { WebhookAddressPolicy } from '../notifications/index.ts';
import type { PlanLimits } from '../subscription/index.ts';
import type { OwnAccounts } from './account-summary.ts';
import type { AiQuota } from './ai-quota.ts';
import { aiRoutes } from './ai.routes.ts';
import { AiService } from './ai.service.ts';
import { WaitlistRepository } from './waitlist.repository.ts';
import type { AdMirrorService } from '../ad-accounts/index.ts';
import type { ToolRegistry } from '../../lib/tool-registry.ts';
import { AssistantTools } from './assistant/assistant-tools.ts';
import { AssistantService } from './assistant/assistant.service.ts';
import { ConversationsRepository } from './assistant/conversations.repository.ts';
import { MirrorEntityReads } from './assistant/entity-reads.ts';
import { explorerTools } from './assistant/explorer-tools.ts';
import { Suggestions } from './assistant/suggestions.ts';
import type { ManualActionsService } from '../entities/index.ts';

export interface AiOptions {
  /** The plan's monthly AI requests (billing's limits seam). */
  quota?: AiQuota;
  /** Where the provider settings are read on each request (by default the settings seam). */
  settings?: AiSettingsSource;
}

export interface AiModuleDeps {
  transactions: Transactions;
  /** The settings seam the provider settings are read from, and where each came from; with AI_TIMEOUT_MS. */
  settings: SettingsReader & { details(): Pick<ResolvedSettings, 'sources'> };
  /**
   * The webhook address policy (the notifications module's): an AI server address saved in Settings is resolved,
   * checked and pinned by it at every call (ADR 0097).
   */
  addresses: Pick<WebhookAddressPolicy, 'resolve'>;
  timeoutMs: number;
  /** The plan's AI requests and fastest rule check (subscription's limits). */
  limits: Pick<PlanLimits, 'aiQuota' | 'rulesIn'>;
  /** The user's own ad accounts (the ad-accounts service). */
  accounts: OwnAccounts;
  /** The mirror's read API (the interim read model of the assistant, until the explorer's lands). */
  mirror: Pick<AdMirrorService, 'accounts' | 'entities' | 'insights'>;
  /** The agents' tool registry (ADR 0155), made after this module: asked for on the first question. */
  registry: () => ToolRegistry | undefined;
  /** The explorer's manual actions (made after this module): the dry run a suggested change is checked by. */
  actions: () => Pick<ManualActionsService, 'run'> | undefined;
  now: () => Date;
}

/** The AI tools (spec §5) and the automation waitlist. Other modules need nothing of it: it exports its routes. */
export function createAiModule(deps: AiModuleDeps, options: AiOptions = {}) {
  const { transactions, limits } = deps;
  const guarded = pinnedFetch((url) => deps.addresses.resolve(url));
  const settings =
    options.settings ??
    aiSettingsFrom(deps.settings, deps.timeoutMs, () =>
      deps.settings.details().sources.openaiBaseUrl === 'saved' ? guarded : undefined,
    );
  const reads = new MirrorEntityReads(transactions, deps.mirror, deps.now);
  const service = new AiService({
    reads,
    modelUsage: (scope) => assistant.monthUsage(scope),
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
  const interim = explorerTools(reads);
  const suggestions = new Suggestions(
    () => deps.actions() ?? { run: () => Promise.resolve([]) },
    async (scope, entityId) => {
      const today = deps.now().toISOString().slice(0, 10);
      return (await reads.entity(scope, entityId, today, today))?.entity.name ?? null;
    },
  );
  let tools: AssistantTools | undefined;
  const assistant = new AssistantService({
    transactions,
    quota: options.quota ?? limits.aiQuota,
    settings,
    reads,
    tools: () =>
      (tools ??= new AssistantTools(deps.registry(), interim, (scope, changes) =>
        suggestions.check(
          scope,
          changes.map((c) => ({ ...c, name: '' })),
        ),
      )),
    conversations: new ConversationsRepository(),
    suggestions,
    now: deps.now,
  });
  return { service, assistant, routes: bindRoutes(aiRoutes, { ai: service, assistant }) };
}
