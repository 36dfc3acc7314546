import type {
  AdAccountStats,
  AiUsage,
  AlgorithmHack,
  AnalysisItem,
  ChatReply,
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

export function useChat() {
  return useAiMutation((message: string) => api.post<ChatReply>('/ai/chat', { message }));
}

export function useAnalyzePerformance() {
  return useAiMutation((campaignData: unknown) =>
    api.post<AnalysisItem[]>('/ai/analyze-performance', { campaignData }),
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
