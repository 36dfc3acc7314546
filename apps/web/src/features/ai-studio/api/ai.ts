import type {
  AdAccountStats,
  AiUsage,
  AlgorithmHack,
  AnalysisItem,
  ChatReply,
  Conversation,
  ConversationSummary,
  HackPlatform,
  Platform,
  WaitlistResponse,
} from '@adpilot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

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

/** A question, in a new conversation or as a follow-up; the list and the thread are read again after it. */
export function useChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { message: string; conversationId?: string | null; language?: string }) =>
      api.post<ChatReply>('/ai/chat', {
        message: input.message,
        ...(input.conversationId ? { conversationId: input.conversationId } : {}),
        ...(input.language === 'th' || input.language === 'en' ? { language: input.language } : {}),
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: usageKey }),
        queryClient.invalidateQueries({ queryKey: conversationsKey }),
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
