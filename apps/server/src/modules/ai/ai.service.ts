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

  analyzePerformance(scope: TenantScope, campaignData: Pasted): Promise<AnalysisItem[]> {
    return this.generate(scope, (provider) => provider.analyzePerformance(campaignData));
  }

  generateStrategy(scope: TenantScope, productInfo: Pasted): Promise<Strategy> {
    return this.generate(scope, (provider) => provider.generateStrategy(productInfo));
  }

  generateAdCopy(scope: TenantScope, productInfo: Pasted, platform: Platform): Promise<string[]> {
    return this.generate(scope, async (provider) =>
      (await provider.generateAdCopy(productInfo, platform)).map(formatVariation),
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
    const [usage, settings, waitlistJoined] = await Promise.all([
      this.deps.quota.usage(scope),
      this.deps.settings(),
      this.deps.transactions.user(personOf(scope), (tx) => this.deps.waitlist.has(tx, AUTOMATION_FEATURE)),
    ]);
    return {
      ...usage,
      hacksAccess: usage.plan === 'free' ? 'limited' : 'full',
      provider: settings.provider,
      waitlistJoined,
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
