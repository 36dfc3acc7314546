import { personOf } from '../../lib/scope.ts';
import {
  type AiUsage,
  type AlgorithmHack,
  type AnalysisItem,
  type HackPlatform,
  type Platform,
  type RuleDraft,
  type Strategy,
  type WaitlistResponse,
} from '@adpilot/contracts';
import type { TenantScope, Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import { AI_MESSAGES } from '@adpilot/contracts';
import { languageOf } from '../../providers/ai/ai-provider.ts';
import type { EntityReads } from './assistant/entity-reads.ts';
import type { AdCopyVariation, AiProvider } from '../../providers/ai/ai-provider.ts';
import type { AiProviderResolver, AiSettingsSource } from '../../providers/ai/ai-provider-factory.ts';
import { summarizeOwnAccounts, type OwnAccounts } from './account-summary.ts';
import type { AiQuota } from './ai-quota.ts';
import { hacksFor } from './algorithm-hacks.ts';
import type { WaitlistRepository } from './waitlist.repository.ts';

/** The Automation tab's feature name in the waitlist. */
const AUTOMATION_FEATURE = 'ai_automation';

export interface AiServiceDeps {
  providers: AiProviderResolver;
  settings: AiSettingsSource;
  quota: AiQuota;
  /** The plan's fastest rule check (ADR 0040's `PlanLimits`), so a drafted rule can be switched on as it is. */
  ruleChecks: { fastestCheckMinutes(scope: TenantScope): Promise<number> };
  accounts: OwnAccounts;
  transactions: Transactions;
  waitlist: WaitlistRepository;
  /** The assistant's read model: Performance Analysis of the account's own figures. */
  reads: Pick<EntityReads, 'accounts' | 'entities'>;
  /** The assistant's model calls and tokens this month (its conversations). */
  modelUsage: (scope: TenantScope) => Promise<{ modelCalls: number; tokens: number }>;
}

interface AnalyzeBody {
  campaignData?: Pasted | undefined;
  adAccountId?: string | undefined;
  campaignId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

type Pasted = Record<string, unknown> | unknown[];

/** One ad copy variation as the spec's list of strings shows it: the headline on its own line, then the text. */
export function formatVariation(variation: AdCopyVariation): string {
  return variation.headline ? `${variation.headline}\n${variation.primaryText}` : variation.primaryText;
}

/**
 * Spec §7 AI: every generating request takes one AI request from the plan's monthly quota first (a refused one is not
 * counted), then asks the provider the settings name at that moment.
 */
export class AiService {
  constructor(private readonly deps: AiServiceDeps) {}

  /** Pasted data, or the account's own figures over the range (read as the caller: another's account is a 404). */
  async analyzePerformance(scope: TenantScope, body: AnalyzeBody): Promise<AnalysisItem[]> {
    const data = body.adAccountId ? await this.accountData(scope, body) : body.campaignData!;
    return this.generate(scope, (provider) => provider.analyzePerformance(data));
  }

  private async accountData(scope: TenantScope, body: AnalyzeBody): Promise<Record<string, unknown>> {
    const rows = await this.deps.reads.entities(scope, {
      level: 'campaign',
      adAccountId: body.adAccountId!,
      from: body.from!,
      to: body.to!,
    });
    const chosen = body.campaignId ? rows.filter((row) => row.id === body.campaignId) : rows;
    const accounts = await this.deps.reads.accounts(scope);
    const account = accounts.find((a) => a.id === body.adAccountId);
    if (!account || (body.campaignId && chosen.length === 0))
      throw new AppError('NOT_FOUND', AI_MESSAGES.accountUnknown, 404);
    const sum = (key: 'spend' | 'impressions' | 'reach' | 'clicks' | 'conversions' | 'conversionValue') =>
      chosen.reduce((total, row) => total + row.totals[key], 0);
    return {
      name: body.campaignId ? chosen[0]!.name : account.name,
      currency: account.currency,
      from: body.from,
      to: body.to,
      spend: sum('spend'),
      impressions: sum('impressions'),
      reach: sum('reach'),
      clicks: sum('clicks'),
      conversions: sum('conversions'),
      conversion_value: sum('conversionValue'),
    };
  }

  generateStrategy(scope: TenantScope, productInfo: Pasted): Promise<Strategy> {
    return this.generate(scope, (provider) => provider.generateStrategy(productInfo));
  }

  generateAdCopy(
    scope: TenantScope,
    productInfo: Pasted,
    platform: Platform,
    language: 'en' | 'th' = languageOf(JSON.stringify(productInfo)),
  ): Promise<string[]> {
    return this.generate(scope, async (provider) =>
      (await provider.generateAdCopy(productInfo, platform, language)).map(formatVariation),
    );
  }

  /** The assistant sees a summary of the caller's own accounts, read as the caller; never anyone else's. */
  chat(scope: TenantScope, message: string): Promise<{ response: string }> {
    return this.generate(scope, async (provider) => {
      const context = await summarizeOwnAccounts(this.deps.accounts, scope);
      return { response: await provider.chat(message, context) };
    });
  }

  /** The draft's schedule is one the caller's plan allows: the plan's fastest unless the prompt names a slower one. */
  draftRule(scope: TenantScope, prompt: string): Promise<RuleDraft> {
    return this.generate(scope, async (provider) => {
      const fastestCheckMinutes = await this.deps.ruleChecks.fastestCheckMinutes(scope);
      return provider.draftRule(prompt, { fastestCheckMinutes });
    });
  }

  /** The curated catalogue: no model involved, so it takes nothing from the quota. */
  async algorithmHacks(scope: TenantScope, platform: HackPlatform): Promise<AlgorithmHack[]> {
    const { plan } = await this.deps.quota.usage(scope);
    return hacksFor(platform, plan === 'free' ? 'limited' : 'full');
  }

  async usage(scope: TenantScope): Promise<AiUsage> {
    const [usage, settings, waitlistJoined, model] = await Promise.all([
      this.deps.quota.usage(scope),
      this.deps.settings(),
      this.deps.transactions.user(personOf(scope), (tx) => this.deps.waitlist.has(tx, AUTOMATION_FEATURE)),
      this.deps.modelUsage(scope),
    ]);
    return {
      ...usage,
      hacksAccess: usage.plan === 'free' ? 'limited' : 'full',
      provider: settings.provider,
      waitlistJoined,
      modelCalls: model.modelCalls,
      tokens: model.tokens,
    };
  }

  /** The Automation tab's "Join Waitlist": recorded once however often (or however many times at once) it is pressed. */
  async joinWaitlist(scope: TenantScope): Promise<WaitlistResponse> {
    const recorded = await this.deps.transactions.user(personOf(scope), (tx) =>
      this.deps.waitlist.join(tx, AUTOMATION_FEATURE),
    );
    return { joined: true, alreadyJoined: !recorded };
  }

  /**
   * Takes one request from the month's quota, then asks the provider the settings name now. When the provider fails
   * (a 5xx: timeout, unreachable, refused key …) the user got no answer and the request is given back; an answer,
   * a refusal to draft included, stays counted.
   */
  private async generate<T>(scope: TenantScope, work: (provider: AiProvider) => Promise<T>): Promise<T> {
    const ticket = await this.deps.quota.take(scope);
    try {
      return await work(await this.deps.providers.current());
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) await this.deps.quota.giveBack(ticket);
      throw error;
    }
  }
}
