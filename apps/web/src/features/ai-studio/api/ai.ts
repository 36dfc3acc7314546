import type {
  AdAccountStats,
  AiUsage,
  AlgorithmHack,
  AnalysisItem,
  ChatReply,
  Conversation,
  ConversationSummary,
  EntityActionResult,
  ErrorCode,
  HackPlatform,
  Platform,
  SuggestedChange,
  WaitlistResponse,
} from '@adpilot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ENTITIES_QUERY_KEY } from '../../../api/entities.ts';
import { PROPOSALS_QUERY_KEY } from '../../../api/proposals.ts';
import { api, apiResponse, ApiError } from '../../../lib/api-client.ts';

/** Every AI studio query sits under this prefix. */
export const AI_QUERY_KEY = ['ai'] as const;
const usageKey = [...AI_QUERY_KEY, 'usage'] as const;

export function getAiUsage(signal?: AbortSignal): Promise<AiUsage> {
  return api.get<AiUsage>('/ai/usage', { signal });
}

export function aiUsageQueryOptions() {
  return queryOptions({ queryKey: usageKey, queryFn: ({ signal }) => getAiUsage(signal) });
}

export function useAiUsage() {
  return useQuery(aiUsageQueryOptions());
}

export function getAlgorithmHacks(platform: HackPlatform, signal?: AbortSignal): Promise<AlgorithmHack[]> {
  return api.get<AlgorithmHack[]>(`/ai/algorithm-hacks/${encodeURIComponent(platform)}`, { signal });
}

/** Spec §4: asked only while the Hacks tab is open, and again for each platform. */
export function useAlgorithmHacks(platform: HackPlatform, enabled: boolean) {
  return useQuery({
    queryKey: [...AI_QUERY_KEY, 'hacks', platform] as const,
    queryFn: ({ signal }) => getAlgorithmHacks(platform, signal),
    enabled,
  });
}

/** Each generating call takes one request from the month's quota: the usage card is refreshed after it. */
function useAiMutation<TInput, TOutput>(mutationFn: (input: TInput) => Promise<TOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usageKey }),
  });
}

const conversationsKey = [...AI_QUERY_KEY, 'conversations'] as const;

/** The member's own past conversations, newest first. */
export function useConversations() {
  return useQuery({
    queryKey: conversationsKey,
    queryFn: ({ signal }) => api.get<ConversationSummary[]>('/ai/conversations', { signal }),
  });
}

export function useConversation(id: string | null) {
  return useQuery({
    queryKey: [...conversationsKey, id] as const,
    queryFn: ({ signal }) => api.get<Conversation>(`/ai/conversations/${encodeURIComponent(id!)}`, { signal }),
    enabled: id !== null,
  });
}

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ deleted: true }>(`/ai/conversations/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationsKey }),
  });
}

export interface ChatInput {
  message: string;
  conversationId?: string | null;
  language?: string;
  /** The answer's text as the server streams it (each piece once, in order). */
  onDelta?: (text: string) => void;
}

/** One server-sent event of the chat's stream: its name and its JSON. */
function parseEvent(block: string): { event: string; data: unknown } | null {
  const event = /^event: ?(.*)$/m.exec(block)?.[1]?.trim();
  const data = block
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
  if (!event || !data) return null;
  try {
    return { event, data: JSON.parse(data) };
  } catch {
    return null;
  }
}

/**
 * A question, streamed: the server sends the answer's text as `delta` events as the model writes it, then the whole
 * reply as `done` (or `error`). A server that answers JSON instead is read as JSON.
 */
export async function streamChat(input: ChatInput): Promise<ChatReply> {
  const response = await apiResponse('POST', '/ai/chat', {
    accept: 'text/event-stream',
    body: {
      message: input.message,
      ...(input.conversationId ? { conversationId: input.conversationId } : {}),
      ...(input.language === 'th' || input.language === 'en' ? { language: input.language } : {}),
    },
  });
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream') || !response.body)
    return ((await response.json()) as { data: ChatReply }).data;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
      const parsed = parseEvent(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
      if (!parsed) continue;
      if (parsed.event === 'delta') input.onDelta?.((parsed.data as { text: string }).text);
      if (parsed.event === 'done') return (parsed.data as { data: ChatReply }).data;
      if (parsed.event === 'error') {
        const failure = parsed.data as { code?: string; message?: string };
        throw new ApiError(
          failure.message ?? 'Something went wrong',
          502,
          (failure.code ?? 'INTERNAL_ERROR') as ErrorCode,
        );
      }
    }
  }
  throw new ApiError('The answer ended before it was complete', 502, 'AI_INVALID_REPLY');
}

/** A question, in a new conversation or as a follow-up; the list and the thread are read again after it. */
export function useChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: streamChat,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: usageKey }),
        queryClient.invalidateQueries({ queryKey: conversationsKey }),
      ]),
  });
}

/**
 * A suggested change the person confirms: sent to the explorer's manual actions as themselves, applied through the
 * ledger or (`propose`) left in the Inbox. Its key makes a second click find the first one's change.
 */
export function useConfirmSuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { suggestion: SuggestedChange; propose: boolean; key: string }) => {
      const [result] = await api.post<EntityActionResult[]>('/entities/actions', {
        items: [input.suggestion.change],
        ...(input.propose ? { propose: true } : {}),
        key: input.key,
      });
      return result!;
    },
    // The change is in the Inbox's list and count, the explorer's rows and the log now.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: PROPOSALS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: ENTITIES_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: ['logs'] }),
      ]),
  });
}

export function useAnalyzePerformance() {
  return useAiMutation((campaignData: unknown) =>
    api.post<AnalysisItem[]>('/ai/analyze-performance', { campaignData }),
  );
}

/** Performance Analysis of an account's own figures over a range (no pasted data). */
export function useAnalyzeAccount() {
  return useAiMutation((input: { adAccountId: string; from: string; to: string }) =>
    api.post<AnalysisItem[]>('/ai/analyze-performance', input),
  );
}

export function useGenerateAdCopy() {
  return useAiMutation((input: { productInfo: unknown; platform: Platform }) =>
    api.post<string[]>('/ai/generate-ad-copy', input),
  );
}

export function useJoinWaitlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<WaitlistResponse>('/ai/waitlist'),
    onSuccess: () => {
      queryClient.setQueryData<AiUsage>(usageKey, (usage) => (usage ? { ...usage, waitlistJoined: true } : usage));
    },
  });
}

export function getAccountStats(id: string): Promise<AdAccountStats> {
  return api.get<AdAccountStats>(`/ad-accounts/${encodeURIComponent(id)}/stats`);
}
