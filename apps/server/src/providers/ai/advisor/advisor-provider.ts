import type { AnalysisItem, Platform, RuleDraft, Strategy } from '@adpilot/contracts';
import { AppError } from '../../../lib/app-error.ts';
import { AI_MESSAGES } from '@adpilot/contracts';
import type { AccountSummary, AdCopyVariation, AiProvider } from '../ai-provider.ts';
import { readProduct, writeAdCopy, writeThaiAdCopy } from './ad-copy.ts';
import { analyzeCampaigns } from './analysis.ts';
import { answerQuestion } from './assistant.ts';
import type { DraftPlan } from '../rule-schedule.ts';
import { DraftRefusal, draftRule } from './rule-drafting.ts';
import { planStrategy } from './strategy.ts';

/** The embedded default: deterministic answers computed from the user's numbers, no model and no network. */
export class AdvisorProvider implements AiProvider {
  readonly kind = 'builtin' as const;

  async analyzePerformance(campaignData: Record<string, unknown> | unknown[]): Promise<AnalysisItem[]> {
    return analyzeCampaigns(campaignData);
  }

  async generateStrategy(productInfo: Record<string, unknown> | unknown[]): Promise<Strategy> {
    return planStrategy(productInfo);
  }

  async generateAdCopy(
    productInfo: Record<string, unknown> | unknown[],
    platform: Platform,
    language: 'en' | 'th' = 'en',
  ): Promise<AdCopyVariation[]> {
    return language === 'th'
      ? writeThaiAdCopy(readProduct(productInfo, 'th'), platform)
      : writeAdCopy(readProduct(productInfo), platform);
  }

  async chat(message: string, context: AccountSummary | null): Promise<string> {
    return answerQuestion(message, context);
  }

  async draftRule(prompt: string, plan: DraftPlan): Promise<RuleDraft> {
    try {
      return draftRule(prompt, plan);
    } catch (error) {
      if (error instanceof DraftRefusal)
        throw new AppError('AI_DRAFT_NOT_UNDERSTOOD', AI_MESSAGES.draftNotUnderstood, 422);
      throw error;
    }
  }
}
