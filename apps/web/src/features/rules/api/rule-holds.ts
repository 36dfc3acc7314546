import type { RuleHold } from '@adpilot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { RULES_QUERY_KEY, rulePath } from './rules.ts';
import { ruleRunsQueryKey } from './rule-runs.ts';

export const ruleHoldsQueryKey = (id: string) => [...RULES_QUERY_KEY, 'holds', id] as const;

export function getRuleHolds(id: string, signal?: AbortSignal): Promise<RuleHold[]> {
  return api.get<RuleHold[]>(`${rulePath(id)}/holds`, { signal });
}

export function resumeHoldNow(actionId: string): Promise<{ hold: RuleHold }> {
  return api.post<{ hold: RuleHold }>(`/rules/holds/${encodeURIComponent(actionId)}/resume`);
}

/** The rule's timed holds, the latest due first. */
export function useRuleHolds(id: string) {
  return useQuery({ queryKey: ruleHoldsQueryKey(id), queryFn: ({ signal }) => getRuleHolds(id, signal) });
}

/** "Resume now": the answered hold replaces its row; the history is read again. */
export function useResumeHold(ruleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hold: RuleHold) => resumeHoldNow(hold.actionId),
    onSuccess: ({ hold }) => {
      queryClient.setQueryData<RuleHold[]>(ruleHoldsQueryKey(ruleId), (holds) =>
        holds?.map((item) => (item.actionId === hold.actionId ? hold : item)),
      );
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ruleHoldsQueryKey(ruleId) }),
        queryClient.invalidateQueries({ queryKey: ruleRunsQueryKey(ruleId) }),
      ]),
  });
}
