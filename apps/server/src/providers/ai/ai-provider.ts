import type { AiProviderKind, AnalysisItem, Platform, RuleDraft, Strategy } from '@adpilot/contracts';
import type { DraftPlan } from './rule-schedule.ts';

/** One variation of ad copy: TikTok has no headline (null), every other platform has one. */
export interface AdCopyVariation {
  headline: string | null;
  primaryText: string;
}

/** What the assistant may know about the caller: their own accounts' last seven days, nobody else's. */
export interface AccountSummary {
  accounts: {
    name: string;
    currency: string;
    status: string;
    spend: number;
    impressions: number;
    clicks: number;
    conversions: number;
    conversionValue: number;
    ctr: number | null;
    cpc: number | null;
    cpa: number | null;
    roas: number | null;
  }[];
}

/**
 * The AI studio's one seam: the built-in advisor (default) and an OpenAI-compatible server implement it. Inputs are
 * already validated; answers are checked against the contracts' schemas by the implementation that produced them.
 */
export interface AiProvider {
  readonly kind: AiProviderKind;
  analyzePerformance(campaignData: Record<string, unknown> | unknown[]): Promise<AnalysisItem[]>;
  generateStrategy(productInfo: Record<string, unknown> | unknown[]): Promise<Strategy>;
  generateAdCopy(
    productInfo: Record<string, unknown> | unknown[],
    platform: Platform,
    language?: 'en' | 'th',
  ): Promise<AdCopyVariation[]>;
  chat(message: string, context: AccountSummary | null): Promise<string>;
  /** A switched-off rule whose schedule the user's plan can switch on. */
  draftRule(prompt: string, plan: DraftPlan): Promise<RuleDraft>;
}

/** Thai script anywhere in the text: answer in Thai. */
export function languageOf(text: string): 'en' | 'th' {
  return /[\u0E00-\u0E7F]/.test(text) ? 'th' : 'en';
}
