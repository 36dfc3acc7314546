import { z } from 'zod';
import { HACK_PLATFORMS, PLAN_IDS, PLATFORMS } from './constants.ts';
import { createRuleRequestSchema } from './rules.ts';
import { ENTITY_ACTION_TYPES } from './entities.ts';
import { JSON_DEPTH_MAX, nestedDeeperThan } from './json-depth.ts';
import { text } from './text.ts';

/**
 * The AI studio (spec §2, §3, §5, §7): requests, answers, the platform copy limits and the texts of every refusal.
 * The same answer schemas validate the built-in advisor's output in tests and an OpenAI-compatible server's
 * structured replies at run time.
 */

export const AI_LIMITS = {
  messageMax: 2000,
  promptMax: 500,
  /** The JSON a user pastes (campaign data, product information), serialized. */
  jsonMax: 20_000,
  analysisItemsMax: 20,
  copyVariations: 3,
} as const;

/** Spec §5 and §8 texts, plus one clear message per refusal the spec leaves unnamed. */
export const AI_MESSAGES = {
  campaignDataRequired: 'Please enter campaign data',
  productInfoRequired: 'Please enter product information',
  invalidJson: 'Please enter valid JSON data',
  jsonTooLarge: `The data must be at most ${AI_LIMITS.jsonMax} characters of JSON`,
  jsonTooDeep: `The data must nest at most ${JSON_DEPTH_MAX} levels deep`,
  messageRequired: 'Please enter a question',
  messageMax: `The question must be at most ${AI_LIMITS.messageMax} characters`,
  promptRequired: 'Describe the rule you want, e.g. "pause ads with CPA over 500 baht in the last 7 days"',
  promptMax: `The description must be at most ${AI_LIMITS.promptMax} characters`,
  platformUnknown: `Unknown platform: use one of ${PLATFORMS.join(', ')}`,
  hackPlatformUnknown: `Unknown platform: use one of ${HACK_PLATFORMS.join(', ')}`,
  draftNotUnderstood:
    'I could not turn this into a rule. Name a metric, a comparison and a number, and what to do, e.g. "pause ads with CPA over 500 baht in the last 7 days".',
  providerAuth: 'The AI provider refused the API key (401). Check the OpenAI API key in Settings.',
  providerQuota: 'The AI provider says its quota is exhausted (429). Check the plan and billing of the AI account.',
  providerRateLimited: 'The AI provider is busy (429). Try again in a minute.',
  modelUnknown: 'The AI provider does not know the configured model (404). Check the model name in Settings.',
  providerTimeout: 'The AI provider did not answer in time. Try again.',
  providerInvalidReply: 'The AI provider answered in an unexpected format twice. Try again.',
  providerRefused: 'The AI provider declined this request.',
  providerUnavailable: 'The AI provider could not be reached. Try again later.',
  providerAddressRefused:
    "The AI server's address in Settings points to a private or local network, which AdPilot does not call.",
  waitlistJoined: "You're on the waitlist",
  conversationUnknown: 'This conversation does not exist or is not yours',
  accountUnknown: 'Choose one of your ad accounts (and one of its campaigns)',
  rangeInvalid: 'Choose a range of days (from and to, YYYY-MM-DD, from not after to, at most 93 days)',
} as const;

export const AI_PROVIDER_KINDS = ['builtin', 'openai'] as const;
export type AiProviderKind = (typeof AI_PROVIDER_KINDS)[number];

export const platformSchema = z.enum(PLATFORMS, { error: AI_MESSAGES.platformUnknown });
export type Platform = z.infer<typeof platformSchema>;
export const hackPlatformSchema = z.enum(HACK_PLATFORMS, { error: AI_MESSAGES.hackPlatformUnknown });
export type HackPlatform = z.infer<typeof hackPlatformSchema>;

/**
 * A JSON value the user pasted: an object or array (the box's parsed content), or the box's text itself, parsed
 * here. Blank, `{}`, `[]`, null or a bare number is "Please enter …"; text that is not JSON is the spec's JSON
 * message. The output is always the parsed object or array.
 */
function pastedJson(requiredMessage: string) {
  return z.unknown().transform((input, ctx) => {
    let value = input;
    if (typeof value === 'string') {
      if (value.trim() === '') {
        ctx.addIssue({ code: 'custom', message: requiredMessage });
        return z.NEVER;
      }
      if (value.length > AI_LIMITS.jsonMax) {
        ctx.addIssue({ code: 'custom', message: AI_MESSAGES.jsonTooLarge });
        return z.NEVER;
      }
      // Pasted JSON is parsed here, past the body's own depth check: the same bound before it is parsed.
      if (nestedDeeperThan(value)) {
        ctx.addIssue({ code: 'custom', message: AI_MESSAGES.jsonTooDeep });
        return z.NEVER;
      }
      try {
        value = JSON.parse(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: AI_MESSAGES.invalidJson });
        return z.NEVER;
      }
    }
    const empty =
      value === null ||
      typeof value !== 'object' ||
      (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0);
    if (empty) {
      ctx.addIssue({ code: 'custom', message: requiredMessage });
      return z.NEVER;
    }
    if (JSON.stringify(value).length > AI_LIMITS.jsonMax) {
      ctx.addIssue({ code: 'custom', message: AI_MESSAGES.jsonTooLarge });
      return z.NEVER;
    }
    return value as Record<string, unknown> | unknown[];
  });
}

/**
 * Product information as JSON (an object or array, or its text) or as plain text: text that is not JSON and does not
 * start like JSON becomes `{ description }`; text starting with `{` or `[` that does not parse is still the spec's
 * JSON message.
 */
function productInfo() {
  return z.unknown().transform((input, ctx) => {
    if (typeof input === 'string') {
      const trimmed = input.trim();
      if (trimmed && !/^[[{]/.test(trimmed)) {
        if (trimmed.length > AI_LIMITS.jsonMax) {
          ctx.addIssue({ code: 'custom', message: AI_MESSAGES.jsonTooLarge });
          return z.NEVER;
        }
        return { description: trimmed } as Record<string, unknown> | unknown[];
      }
    }
    const parsed = pastedJson(AI_MESSAGES.productInfoRequired).safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
      return z.NEVER;
    }
    return parsed.data;
  });
}

/**
 * Pasted campaign data (the spec's box), or the account's own figures (issue 29): an account, optionally one of its
 * campaigns, over a range of days.
 */
export const analyzePerformanceRequestSchema = z
  .strictObject({
    campaignData: pastedJson(AI_MESSAGES.campaignDataRequired).optional(),
    adAccountId: z.uuid(AI_MESSAGES.accountUnknown).optional(),
    campaignId: z.uuid(AI_MESSAGES.accountUnknown).optional(),
    from: z.iso.date(AI_MESSAGES.rangeInvalid).optional(),
    to: z.iso.date(AI_MESSAGES.rangeInvalid).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.adAccountId === undefined) {
      if (body.campaignData === undefined)
        ctx.addIssue({ code: 'custom', path: ['campaignData'], message: AI_MESSAGES.campaignDataRequired });
      return;
    }
    const days = body.from && body.to ? (Date.parse(body.to) - Date.parse(body.from)) / 86_400_000 + 1 : 0;
    if (days < 1 || days > 93) ctx.addIssue({ code: 'custom', path: ['from'], message: AI_MESSAGES.rangeInvalid });
  });
export const generateStrategyRequestSchema = z.strictObject({
  productInfo: pastedJson(AI_MESSAGES.productInfoRequired),
});
export const generateAdCopyRequestSchema = z.strictObject({
  productInfo: productInfo(),
  platform: platformSchema,
  /** The copy's language; by default the product information's (Thai script: Thai). */
  language: z.enum(['en', 'th']).optional(),
});
export const chatRequestSchema = z.strictObject({
  message: text({ required: AI_MESSAGES.messageRequired, trim: true, multiline: true })
    .min(1, AI_MESSAGES.messageRequired)
    .max(AI_LIMITS.messageMax, AI_MESSAGES.messageMax),
  /** Accepted as the spec shows it; the server builds its own context from the caller's accounts. */
  context: z.unknown().optional(),
  /** A follow-up in this conversation (one of the caller's own); a new conversation without it. */
  conversationId: z.uuid(AI_MESSAGES.conversationUnknown).optional(),
  /** The reader's language when the question has no script of its own to tell by (the UI's locale). */
  language: z.enum(['en', 'th']).optional(),
});
export const draftRuleRequestSchema = z.strictObject({
  prompt: text({ required: AI_MESSAGES.promptRequired, trim: true })
    .min(1, AI_MESSAGES.promptRequired)
    .max(AI_LIMITS.promptMax, AI_MESSAGES.promptMax),
});
export const hackParamsSchema = z.strictObject({ platform: hackPlatformSchema });

export type AnalyzePerformanceRequest = z.input<typeof analyzePerformanceRequestSchema>;
export type GenerateAdCopyRequest = z.input<typeof generateAdCopyRequestSchema>;
export type ChatRequest = z.input<typeof chatRequestSchema>;
export type DraftRuleRequest = z.input<typeof draftRuleRequestSchema>;

export const ANALYSIS_ITEM_TYPES = ['optimization', 'warning', 'success'] as const;
export const analysisItemSchema = z.object({
  type: z.enum(ANALYSIS_ITEM_TYPES),
  title: z.string().min(1).max(200),
  description: z.string().min(1).max(1000),
});
export type AnalysisItem = z.infer<typeof analysisItemSchema>;
export const analysisSchema = z.array(analysisItemSchema).min(1).max(AI_LIMITS.analysisItemsMax);

export const adCopySchema = z.array(z.string().min(1)).min(1).max(10);

export const strategySchema = z.object({
  summary: z.string().min(1),
  audiences: z.array(z.string().min(1)).min(1),
  channels: z.array(z.object({ platform: platformSchema, role: z.string().min(1) })).min(1),
  budgetSplit: z.array(z.object({ platform: platformSchema, percent: z.number().min(0).max(100) })).min(1),
  kpis: z.array(z.string().min(1)).min(1),
  nextSteps: z.array(z.string().min(1)).min(1),
});
export type Strategy = z.infer<typeof strategySchema>;

/** A figure the answer states, and where it comes from: the entity (its explorer page) or the account. */
export const citationSchema = z.object({
  /** The entity's id in AdPilot (`/campaigns/:id`); absent for an account-wide figure. */
  entityId: z.string().optional(),
  name: z.string(),
  figure: z.string(),
  /** The page the citation links to, inside AdPilot. */
  href: z.string().optional(),
});
export type Citation = z.infer<typeof citationSchema>;

/**
 * A change the assistant suggests (issue 29): nothing is written until the person confirms it, which sends `change`
 * to the explorer's manual actions as themselves (applied through the ledger, or left in the Inbox). `from` → `to`
 * are the mirror's values when it was suggested; the write reads the live value again.
 */
export const suggestedChangeSchema = z.object({
  change: z.object({
    entityId: z.uuid(),
    type: z.enum(ENTITY_ACTION_TYPES),
    amount: z.number().optional(),
    percent: z.number().optional(),
  }),
  name: z.string(),
  href: z.string(),
  field: z.enum(['status', 'daily_budget', 'lifetime_budget']),
  from: z.union([z.string(), z.number()]),
  to: z.union([z.string(), z.number()]),
  currency: z.string().nullable(),
  /** Why, in the answer's language: the figures that led to it. */
  reason: z.string(),
});
export type SuggestedChange = z.infer<typeof suggestedChangeSchema>;
export const SUGGESTED_CHANGES_MAX = 10;

export const chatReplySchema = z.object({
  response: z.string().min(1),
  conversationId: z.uuid(),
  citations: z.array(citationSchema),
  proposals: z.array(z.object({ id: z.string() })),
  /** Changes shown with from → to and a confirm button; none is made until the person confirms it. */
  suggestions: z.array(suggestedChangeSchema).max(SUGGESTED_CHANGES_MAX),
  language: z.enum(['en', 'th']),
  /** False when the assistant could not answer: the question was not counted against the month's quota. */
  counted: z.boolean(),
});
export type ChatReply = z.infer<typeof chatReplySchema>;

export const AI_CONVERSATION_LIMITS = { listed: 50, titleMax: 80, turnsKept: 20 } as const;

export const conversationSummarySchema = z.object({
  id: z.uuid(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const conversationMessageSchema = z.object({
  id: z.uuid(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  citations: z.array(citationSchema),
  proposals: z.array(z.object({ id: z.string() })),
  createdAt: z.string(),
});
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;

export const conversationSchema = conversationSummarySchema.extend({ messages: z.array(conversationMessageSchema) });
export type Conversation = z.infer<typeof conversationSchema>;
export const conversationParamsSchema = z.strictObject({ id: z.uuid(AI_MESSAGES.conversationUnknown) });

export const ruleDraftSchema = z.object({
  /** A valid rule body, always switched off: the user reviews it in the builder and saves it there. */
  rule: createRuleRequestSchema,
  explanation: z.string().min(1),
  /** The language the prompt was written in, which the explanation uses. */
  language: z.enum(['en', 'th']),
});
export type RuleDraft = z.infer<typeof ruleDraftSchema>;

export const HACK_RISK_LEVELS = ['low', 'medium', 'high'] as const;
export const algorithmHackSchema = z.object({
  technique: z.string(),
  riskLevel: z.enum(HACK_RISK_LEVELS),
  /** An estimate in percent, labelled as such where shown. */
  effectiveness: z.number().min(0).max(100),
  /** Null while locked: the free plan sees the technique and its risk, not the how-to. */
  description: z.string().nullable(),
  implementation: z.string().nullable(),
  locked: z.boolean(),
});
export type AlgorithmHack = z.infer<typeof algorithmHackSchema>;

export const aiUsageSchema = z.object({
  plan: z.enum(PLAN_IDS),
  used: z.number().int().min(0),
  /** -1 is unlimited. */
  limit: z.number().int().min(-1),
  hacksAccess: z.enum(['limited', 'full']),
  provider: z.enum(AI_PROVIDER_KINDS),
  /** Whether the user joined the Automation tab's waitlist. */
  waitlistJoined: z.boolean(),
  /** The assistant's calls to the configured model this month, and the tokens they used (0 on the built-in one). */
  modelCalls: z.number().int().min(0),
  tokens: z.number().int().min(0),
});
export type AiUsage = z.infer<typeof aiUsageSchema>;

/** POST /api/ai/waitlist: the interest is recorded once; `alreadyJoined` says this call found it recorded. */
export const waitlistResponseSchema = z.object({ joined: z.literal(true), alreadyJoined: z.boolean() });
export type WaitlistResponse = z.infer<typeof waitlistResponseSchema>;

/**
 * Headline and primary-text limits per platform, in characters: the lengths each platform shows before it cuts the
 * text (Meta's feed headline and primary text, Google's responsive search ad fields, TikTok's ad text, LinkedIn's
 * single-image headline and introductory text). TikTok has no headline: its 40 are the display name's, and its
 * primary text is the ad text (1-100). A variation that fits is shown whole.
 */
export const PLATFORM_COPY_LIMITS: Record<Platform, { headline: number; primaryText: number }> = {
  facebook: { headline: 40, primaryText: 125 },
  instagram: { headline: 40, primaryText: 125 },
  google: { headline: 30, primaryText: 90 },
  tiktok: { headline: 40, primaryText: 100 },
  linkedin: { headline: 70, primaryText: 150 },
};
