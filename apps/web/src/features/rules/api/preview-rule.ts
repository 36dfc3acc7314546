import type { CreateRuleRequest, RuleBacktest, RulePreview } from '@adpilot/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { RULES_QUERY_KEY, rulePath } from './rules.ts';

/** An unsaved body is previewed as the builder holds it; a saved rule by its id. */
export function previewRule(input: { body: CreateRuleRequest } | { id: string }): Promise<RulePreview> {
  return 'id' in input
    ? api.post<RulePreview>(`${rulePath(input.id)}/preview`)
    : api.post<RulePreview>('/rules/preview', input.body);
}

export function backtestRule(id: string, days: number): Promise<RuleBacktest> {
  return api.post<RuleBacktest>(`${rulePath(id)}/backtest`, { days });
}

/**
 * Mutations, not queries: each press asks again on the data as it is now, and a preview of a body that is being
 * edited has no stable key worth caching.
 */
export function usePreviewRule() {
  return useMutation({ mutationFn: previewRule });
}

export function useBacktestRule() {
  return useMutation({ mutationFn: ({ id, days }: { id: string; days: number }) => backtestRule(id, days) });
}

/**
 * A saved rule's preview as a confirmation asks for it: read each time the question opens (no cache kept), and once
 * however often React mounts the dialog.
 */
export function useSavedRulePreview(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...RULES_QUERY_KEY, 'preview', id] as const,
    queryFn: () => previewRule({ id }),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
