import {
  AI_LIMITS,
  AI_MESSAGES,
  ANALYSIS_ITEM_TYPES,
  analysisSchema,
  createRuleRequestSchema,
  ENTITY_LEVELS,
  PLATFORM_COPY_LIMITS,
  RULE_ACTION_TYPES,
  RULE_METRICS,
  RULE_WINDOWS,
  strategySchema,
  type AnalysisItem,
  type Platform,
  type RuleDraft,
  type RuleSchedule,
  type Strategy,
} from '@adpilot/contracts';
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { AiSettings } from './ai-provider-factory.ts';
import { AppError } from '../../lib/app-error.ts';
import { AddressRefusedError } from '../../lib/pinned-fetch.ts';
import { languageOf, type AccountSummary, type AdCopyVariation, type AiProvider } from './ai-provider.ts';
import { checkedWords, readSchedule, scheduleForPlan, type DraftPlan } from './rule-schedule.ts';

/**
 * The answers as the model is asked to write them: JSON schemas OpenAI's strict structured outputs accept (every
 * field required, nulls instead of absent fields, no tuples). Each reply is then checked with the contracts'
 * schemas, which hold the rules strict mode cannot express.
 */
const wire = {
  analysis: z.object({
    items: z.array(z.object({ type: z.enum(ANALYSIS_ITEM_TYPES), title: z.string(), description: z.string() })),
  }),
  strategy: strategySchema,
  adCopy: z.object({ variations: z.array(z.object({ headline: z.string().nullable(), primaryText: z.string() })) }),
  chat: z.object({ response: z.string() }),
  rule: z.object({
    understood: z.boolean(),
    name: z.string(),
    level: z.enum(ENTITY_LEVELS),
    match: z.enum(['all', 'any']),
    conditions: z.array(
      z.object({
        metric: z.enum(RULE_METRICS),
        operator: z.enum(['gt', 'gte', 'lt', 'lte', 'eq', 'neq']),
        value: z.number(),
        window: z.enum(RULE_WINDOWS),
      }),
    ),
    action: z.object({
      type: z.enum(RULE_ACTION_TYPES),
      percent: z.number().nullable(),
      amount: z.number().nullable(),
    }),
    explanation: z.string(),
  }),
};

const SYSTEM = [
  'You are the AI studio of AdPilot, an assistant for advertisers running Meta, Google, TikTok and LinkedIn ads.',
  'Be concrete and honest: compute from the numbers given, say when data is missing, never invent figures.',
].join(' ');

/** The model's flat draft as a rule body (always switched off); the rules contract then judges it. */
function ruleBodyOf(reply: z.output<typeof wire.rule>, prompt: string, schedule: RuleSchedule): unknown {
  const { action } = reply;
  const budgetChange = action.type === 'increase_budget' || action.type === 'decrease_budget';
  return {
    name: reply.name.slice(0, 100),
    description: prompt.slice(0, 500),
    isActive: false,
    // A draft asks before it changes anything, like a template.
    mode: 'approve',
    scope: { adAccountIds: [], level: reply.level, statuses: [action.type === 'resume' ? 'PAUSED' : 'ACTIVE'] },
    conditions: {
      match: reply.match,
      items: reply.conditions.map((condition) => ({
        ...condition,
        includeToday: condition.window.startsWith('last_'),
      })),
    },
    actions: [
      budgetChange
        ? action.percent !== null
          ? { type: action.type, by: action.percent, unit: 'percent' }
          : { type: action.type, by: action.amount, unit: 'amount' }
        : action.type === 'set_budget'
          ? { type: action.type, amount: action.amount }
          : { type: action.type },
    ],
    schedule,
  };
}

/** A reply that parsed but broke a rule of the contract: told to the model once so it can correct itself. */
class ReplyProblem extends Error {}

const TRANSIENT_RETRY_DELAY_MS = 250;

/** The plain-language refusal for each way an OpenAI-compatible server can fail. */
export function toAppError(error: unknown, settings: AiSettings): AppError {
  if (error instanceof APIConnectionTimeoutError) {
    return new AppError('AI_TIMEOUT', AI_MESSAGES.providerTimeout, 504);
  }
  if (error instanceof APIConnectionError && error.cause instanceof AddressRefusedError)
    return new AppError('AI_ADDRESS_REFUSED', AI_MESSAGES.providerAddressRefused, 503);
  if (error instanceof APIConnectionError) return new AppError('AI_UNAVAILABLE', AI_MESSAGES.providerUnavailable, 503);
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
    return new AppError('AI_PROVIDER_AUTH', AI_MESSAGES.providerAuth, 502);
  }
  if (error instanceof RateLimitError) {
    if (error.code === 'insufficient_quota') return new AppError('AI_PROVIDER_QUOTA', AI_MESSAGES.providerQuota, 503);
    return new AppError('AI_PROVIDER_RATE_LIMITED', AI_MESSAGES.providerRateLimited, 503, undefined, {
      'retry-after': '60',
    });
  }
  if (error instanceof NotFoundError) {
    return new AppError('AI_MODEL_UNKNOWN', `${AI_MESSAGES.modelUnknown} (model: ${settings.model})`, 502);
  }
  if (error instanceof APIError) return new AppError('AI_UNAVAILABLE', AI_MESSAGES.providerUnavailable, 502);
  if (error instanceof AppError) return error;
  return new AppError('AI_UNAVAILABLE', AI_MESSAGES.providerUnavailable, 502);
}

/** Worth one more try: the connection dropped, the server erred, or it asked us to slow down (not: quota gone). */
function isTransient(error: unknown): boolean {
  if (error instanceof APIConnectionTimeoutError) return false;
  if (error instanceof APIConnectionError && error.cause instanceof AddressRefusedError) return false;
  if (error instanceof APIConnectionError) return true;
  if (error instanceof RateLimitError) return error.code !== 'insufficient_quota';
  return error instanceof APIError && typeof error.status === 'number' && error.status >= 500;
}

const issuesOf = (error: z.ZodError) =>
  error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');

/**
 * Any server speaking OpenAI's chat-completions protocol (OpenAI, Ollama, vLLM, LM Studio), through the official SDK:
 * structured outputs with a JSON schema, a timeout, one retry on transient failures, one retry when the reply breaks
 * the schema, and a clear message for a refused key, an exhausted quota and an unknown model.
 */
export class OpenAiProvider implements AiProvider {
  readonly kind = 'openai' as const;
  private readonly client: OpenAI;

  constructor(private readonly settings: AiSettings) {
    this.client = new OpenAI({
      // Local servers (Ollama, LM Studio) need no key, but the SDK insists on one.
      apiKey: settings.apiKey ?? 'not-needed',
      baseURL: settings.baseUrl ?? null,
      timeout: settings.timeoutMs,
      // Retries are ours (isTransient): the SDK would also retry an exhausted quota.
      maxRetries: 0,
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
    });
  }

  async analyzePerformance(campaignData: Record<string, unknown> | unknown[]): Promise<AnalysisItem[]> {
    return this.structured(
      'performance_analysis',
      wire.analysis,
      [
        'Analyse this campaign data. Compute CTR (clicks/impressions×100), CPC, CPM, CPA, ROAS and frequency where the',
        'data allows, compare each with common industry benchmarks, and return up to 10 items typed optimization,',
        'warning or success, each description quoting the numbers.',
        `Data: ${JSON.stringify(campaignData)}`,
      ],
      (reply) => {
        const items = analysisSchema.safeParse(reply.items);
        if (!items.success) throw new ReplyProblem(issuesOf(items.error));
        return items.data;
      },
    );
  }

  async generateStrategy(productInfo: Record<string, unknown> | unknown[]): Promise<Strategy> {
    return this.structured(
      'marketing_strategy',
      wire.strategy,
      [
        'Write a paid-social marketing strategy for this product: summary, audiences, channels with their role, a',
        'budget split in percent over the channels (summing to 100), KPIs and next steps.',
        `Product: ${JSON.stringify(productInfo)}`,
      ],
      (reply) => reply,
    );
  }

  async generateAdCopy(
    productInfo: Record<string, unknown> | unknown[],
    platform: Platform,
    language: 'en' | 'th' = 'en',
  ): Promise<AdCopyVariation[]> {
    const limits = PLATFORM_COPY_LIMITS[platform];
    const headline =
      platform === 'tiktok'
        ? 'headline must be null (TikTok ads have none)'
        : `headline at most ${limits.headline} characters`;
    const fits = z
      .array(
        z.object({
          headline:
            platform === 'tiktok'
              ? z.null()
              : z
                  .string()
                  .min(1)
                  .refine((text) => [...text].length <= limits.headline),
          primaryText: z
            .string()
            .min(1)
            .refine((text) => [...text].length <= limits.primaryText),
        }),
      )
      .min(1);
    return this.structured(
      'ad_copy',
      wire.adCopy,
      [
        `Write ${AI_LIMITS.copyVariations} ad copy variations for ${platform}: ${headline}, primaryText at most`,
        `${limits.primaryText} characters, each with a different angle, written wholly in`,
        language === 'th'
          ? 'Thai (every word Thai, including the call to action; only brand and product names as given).'
          : 'English.',
        `Product: ${JSON.stringify(productInfo)}`,
      ],
      (reply) => {
        const checked = fits.safeParse(reply.variations);
        if (!checked.success) throw new ReplyProblem(`variations break the ${platform} length limits`);
        return checked.data.slice(0, AI_LIMITS.copyVariations);
      },
    );
  }

  async chat(message: string, context: AccountSummary | null): Promise<string> {
    const contextLine = context
      ? `The user's own ad accounts over the last 7 days (use only if relevant): ${JSON.stringify(context.accounts)}`
      : 'No account data is available.';
    return this.structured(
      'chat_reply',
      wire.chat,
      [
        "Answer the advertiser's question briefly, in the language of the question, formatted with short paragraphs",
        'or bullet lines. Say plainly when you do not know.',
        contextLine,
        `Question: ${message}`,
      ],
      (reply) => {
        if (!reply.response.trim()) throw new ReplyProblem('response is empty');
        return reply.response;
      },
    );
  }

  /**
   * The model drafts the conditions, action and words; the schedule is read from the request as the built-in
   * advisor reads it and fitted to the plan the same way, so both providers' drafts can be switched on as they are.
   */
  async draftRule(prompt: string, plan: DraftPlan): Promise<RuleDraft> {
    const language = languageOf(prompt);
    const { schedule, note } = scheduleForPlan(readSchedule(prompt), plan, language);
    return this.structured(
      'rule_draft',
      wire.rule,
      [
        'Turn this request into an AdPilot automation rule. Metrics are in the ad account currency (CTR in percent,',
        'ROAS as a ratio). Windows: today, yesterday, last_3d, last_7d, last_14d, last_30d, lifetime (default',
        'last_7d). increase_budget and decrease_budget need percent or amount, set_budget needs amount; budget actions',
        'need level campaign or adset. If the request is not an ad rule, set understood to false.',
        `Write name and explanation in ${language === 'th' ? 'Thai' : 'English'}; do not mention how often the rule is`,
        'checked (AdPilot adds that).',
        `Request: ${prompt}`,
      ],
      (reply) => {
        if (!reply.understood) throw new AppError('AI_DRAFT_NOT_UNDERSTOOD', AI_MESSAGES.draftNotUnderstood, 422);
        const rule = createRuleRequestSchema.safeParse(ruleBodyOf(reply, prompt, schedule));
        if (!rule.success) throw new ReplyProblem(issuesOf(rule.error));
        const explanation = [reply.explanation, checkedWords(schedule, language), note].filter(Boolean).join('\n');
        return { rule: rule.data, explanation, language };
      },
    );
  }

  /**
   * One structured completion: the reply must be JSON matching `schema`, and `check` (the contract's own rules) must
   * accept it. A reply that fails either is sent back once with what was wrong; a second failure is a clear 502.
   */
  private async structured<S extends z.ZodType, R>(
    name: string,
    schema: S,
    lines: string[],
    check: (value: z.output<S>) => R,
  ): Promise<R> {
    const format = zodResponseFormat(schema, name);
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: lines.join(' ') },
    ];
    let conversation = messages;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const completion = await this.send({
        model: this.settings.model,
        messages: conversation,
        response_format: format,
      });
      const message = completion.choices[0]?.message;
      if (message?.refusal) throw new AppError('AI_REFUSED', AI_MESSAGES.providerRefused, 422);
      const content = message?.content ?? '';
      let problem: string;
      try {
        const parsed = schema.safeParse(JSON.parse(content));
        if (parsed.success) return check(parsed.data);
        problem = issuesOf(parsed.error);
      } catch (error) {
        if (error instanceof SyntaxError) problem = 'the reply is not JSON';
        else if (error instanceof ReplyProblem) problem = error.message;
        else throw error;
      }
      conversation = [
        ...messages,
        { role: 'assistant', content },
        { role: 'user', content: `That reply does not match the required JSON schema (${problem}). Reply again.` },
      ];
    }
    throw new AppError('AI_INVALID_REPLY', AI_MESSAGES.providerInvalidReply, 502);
  }

  private async send(body: ChatCompletionCreateParamsNonStreaming) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.client.chat.completions.create(body);
      } catch (error) {
        if (attempt === 0 && isTransient(error)) {
          await new Promise((resolve) => setTimeout(resolve, TRANSIENT_RETRY_DELAY_MS));
          continue;
        }
        throw toAppError(error, this.settings);
      }
    }
  }
}
