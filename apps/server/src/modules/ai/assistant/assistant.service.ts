import {
  AI_CONVERSATION_LIMITS,
  AI_MESSAGES,
  formatMoney,
  SUGGESTED_CHANGES_MAX,
  type ChatReply,
  type Citation,
  type Conversation,
  type ConversationSummary,
  type SuggestedChange,
} from '@adpilot/contracts';
import type { TenantScope, Transactions } from '@adpilot/db';
import { AppError } from '../../../lib/app-error.ts';
import type { AiSettingsSource } from '../../../providers/ai/ai-provider-factory.ts';
import type { AiQuota } from '../ai-quota.ts';
import { Analyst, intentOf, type Language } from './analyst.ts';
import type { AssistantTools } from './assistant-tools.ts';
import type { ConversationsRepository } from './conversations.repository.ts';
import type { EntityReads } from './entity-reads.ts';
import { ModelLoop, type ModelTurn } from './model-loop.ts';
import type { Suggestions } from './suggestions.ts';

export interface AssistantDeps {
  transactions: Transactions;
  quota: AiQuota;
  settings: AiSettingsSource;
  reads: EntityReads;
  /** The tool box, built on first use (the registry is made after the AI module). */
  tools: () => AssistantTools;
  conversations: ConversationsRepository;
  /** The changes an answer suggests, checked as the explorer's dry run would (ADR 0156). */
  suggestions: Suggestions;
  now: () => Date;
}

export interface ChatInput {
  message: string;
  conversationId?: string | undefined;
  language?: Language | undefined;
}

/** The answer's language: the question's script, else the reader's chosen language (ADR 0141). */
export function answerLanguage(message: string, chosen: Language | undefined): Language {
  if (/[\u0E00-\u0E7F]/.test(message)) return 'th';
  if (/[a-z]{2}/i.test(message)) return 'en';
  return chosen ?? 'en';
}

/** A conversation's title: its first question on one line, cut short. */
function titleOf(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > AI_CONVERSATION_LIMITS.titleMax
    ? `${chars.slice(0, AI_CONVERSATION_LIMITS.titleMax - 1).join('')}…`
    : flat;
}

interface CitedEntity {
  id: string;
  name: string;
  href: string;
  spend?: number;
  currency?: string;
}

/** The entities tool answers named (anything with an id, a name and an href of ours), once each. */
function entitiesIn(results: unknown[]): CitedEntity[] {
  const found = new Map<string, CitedEntity>();
  const walk = (value: unknown, depth: number) => {
    if (depth > 6 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((item) => walk(item, depth + 1));
    const record = value as Record<string, unknown>;
    if (
      typeof record.id === 'string' &&
      typeof record.name === 'string' &&
      typeof record.href === 'string' &&
      record.href.startsWith('/campaigns/') &&
      !found.has(record.id)
    )
      found.set(record.id, record as unknown as CitedEntity);
    for (const child of Object.values(record)) walk(child, depth + 1);
  };
  walk(results, 0);
  return [...found.values()];
}

/** The citations of a model's answer: each entity it read whose name or link the answer carries. */
export function citationsOf(text: string, results: unknown[], language: Language): Citation[] {
  return entitiesIn(results)
    .filter((e) => text.includes(e.href) || (e.name.length >= 3 && text.includes(e.name)))
    .slice(0, 20)
    .map((e) => ({
      entityId: e.id,
      name: e.name.slice(0, 200),
      figure:
        typeof e.spend === 'number' && typeof e.currency === 'string' ? formatMoney(e.spend, e.currency, language) : '',
      href: e.href,
    }));
}

interface Answer {
  text: string;
  citations: Citation[];
  suggestions: SuggestedChange[];
  answered: boolean;
  modelCalls: number;
  tokens: number;
}

/** One question, its quota taken: run it to get the answer (streamed to `onDelta` as it comes). */
export interface ChatTurn {
  conversationId: string;
  run(onDelta?: (text: string) => void): Promise<ChatReply>;
}

/**
 * The AI studio's assistant (issue 29): conversations per member per workspace, each question counted once against
 * the month's quota however many tool calls answer it, answered by the configured model's tool loop or by the
 * built-in analyst. A question the analyst could not answer, or a model that failed, is given back (ADR 0142).
 */
export class AssistantService {
  private readonly analyst: Analyst;

  constructor(private readonly deps: AssistantDeps) {
    this.analyst = new Analyst(deps.reads, deps.tools);
  }

  async list(scope: TenantScope): Promise<ConversationSummary[]> {
    const rows = await this.deps.transactions.tenant(scope, (tx) => this.deps.conversations.list(tx));
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }));
  }

  async get(scope: TenantScope, id: string): Promise<Conversation> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      const row = await this.deps.conversations.one(tx, id);
      if (!row) throw new AppError('NOT_FOUND', AI_MESSAGES.conversationUnknown, 404);
      const messages = await this.deps.conversations.messages(tx, id);
      return {
        id: row.id,
        title: row.title,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        messages: messages.map((m) => ({
          id: m.id,
          role: m.role,
          content: m.content,
          citations: m.citations as Citation[],
          proposals: m.proposals as { id: string }[],
          createdAt: m.createdAt.toISOString(),
        })),
      };
    });
  }

  async remove(scope: TenantScope, id: string): Promise<void> {
    const removed = await this.deps.transactions.tenant(scope, (tx) => this.deps.conversations.remove(tx, id));
    if (!removed) throw new AppError('NOT_FOUND', AI_MESSAGES.conversationUnknown, 404);
  }

  /** Checks the conversation is the caller's and takes one request from the quota; the answer comes with `run`. */
  async begin(scope: TenantScope, input: ChatInput): Promise<ChatTurn> {
    const { transactions, conversations } = this.deps;
    const history = input.conversationId
      ? await transactions.tenant(scope, async (tx) => {
          const row = await conversations.one(tx, input.conversationId!);
          if (!row) throw new AppError('NOT_FOUND', AI_MESSAGES.conversationUnknown, 404);
          return conversations.recent(tx, row.id);
        })
      : [];
    const ticket = await this.deps.quota.take(scope);
    const language = answerLanguage(input.message, input.language);
    const conversationId =
      input.conversationId ??
      (await transactions.tenant(scope, (tx) => conversations.create(tx, titleOf(input.message)))).id;
    return {
      conversationId,
      run: async (onDelta = () => {}) => {
        let answer: Answer;
        try {
          answer = await this.answer(scope, input.message, language, history, onDelta);
        } catch (error) {
          if (!(error instanceof AppError) || error.statusCode >= 500) await this.deps.quota.giveBack(ticket);
          throw error;
        }
        if (!answer.answered) await this.deps.quota.giveBack(ticket);
        await transactions.tenant(scope, (tx) =>
          conversations.append(
            tx,
            conversationId,
            input.message,
            {
              content: answer.text,
              citations: answer.citations,
              proposals: [],
              modelCalls: answer.modelCalls,
              tokens: answer.tokens,
            },
            this.deps.now(),
          ),
        );
        return {
          response: answer.text,
          conversationId,
          citations: answer.citations,
          proposals: [],
          suggestions: answer.suggestions,
          language,
          counted: answer.answered,
        };
      },
    };
  }

  private async answer(
    scope: TenantScope,
    message: string,
    language: Language,
    history: { role: 'user' | 'assistant'; content: string }[],
    onDelta: (text: string) => void,
  ): Promise<Answer> {
    const settings = await this.deps.settings();
    if (settings.provider === 'openai') {
      const turns: ModelTurn[] = history.map((m) => ({ role: m.role, content: m.content }));
      const loop = new ModelLoop(settings);
      const today = this.deps.now().toISOString().slice(0, 10);
      const reply = await loop.run(scope, this.deps.tools(), turns, message, language, today, onDelta);
      return {
        text: reply.text,
        citations: citationsOf(reply.text, reply.results, language),
        suggestions: reply.suggestions.slice(0, SUGGESTED_CHANGES_MAX),
        answered: true,
        modelCalls: reply.steps,
        tokens: reply.tokens,
      };
    }
    // The question a follow-up continues: the latest of the member's that asked one ("and yesterday?" asks none).
    const previous =
      [...history].reverse().find((m) => m.role === 'user' && intentOf(m.content) !== null)?.content ?? null;
    const answer = await this.analyst.answer(scope, message, language, previous);
    onDelta(answer.text);
    const suggestions = await this.deps.suggestions.check(scope, answer.candidates);
    return { ...answer, suggestions, modelCalls: 0, tokens: 0 };
  }

  /** The member's model calls and tokens this calendar month (UTC), in this workspace. */
  async monthUsage(scope: TenantScope): Promise<{ modelCalls: number; tokens: number }> {
    const now = this.deps.now();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    return this.deps.transactions.tenant(scope, (tx) => this.deps.conversations.usageSince(tx, since));
  }
}
