import type { RuleActionRecord, RuleRun } from '@adpilot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { RULES_QUERY_KEY, rulePath, ruleQueryKey } from './rules.ts';

const RUN_POLL_INTERVAL_MS = 1_500;

export const ruleRunsQueryKey = (id: string) => [...RULES_QUERY_KEY, 'runs', id] as const;

export function getRuleRuns(id: string, signal?: AbortSignal): Promise<RuleRun[]> {
  return api.get<RuleRun[]>(`${rulePath(id)}/runs`, { signal });
}

export function runRuleNow(id: string): Promise<{ runId: string }> {
  return api.post<{ runId: string }>(`${rulePath(id)}/run`);
}

export function revertRuleAction(actionId: string): Promise<{ action: RuleActionRecord }> {
  return api.post<{ action: RuleActionRecord }>(`/rules/actions/${encodeURIComponent(actionId)}/revert`);
}

const isOpen = (run: RuleRun) => run.status === 'queued' || run.status === 'running';

export function ruleRunsQueryOptions(id: string) {
  return queryOptions({
    queryKey: ruleRunsQueryKey(id),
    queryFn: ({ signal }) => getRuleRuns(id, signal),
    // A run goes on in a worker: the history is polled until none is queued or running.
    refetchInterval: (query) => (query.state.data?.some(isOpen) ? RUN_POLL_INTERVAL_MS : false),
  });
}

export function useRuleRuns(id: string) {
  return useQuery(ruleRunsQueryOptions(id));
}

export function useRunRuleNow(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => runRuleNow(id),
    // The queued run appears at once and starts the polling; lastTriggered comes with the rule's next read.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ruleRunsQueryKey(id) }),
        queryClient.invalidateQueries({ queryKey: ruleQueryKey(id) }),
      ]),
  });
}

/** The reverted action replaces its row in the cached history, from the answer. */
export function useRevertRuleAction(ruleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: RuleActionRecord) => revertRuleAction(action.id),
    onSuccess: ({ action }) => {
      queryClient.setQueryData<RuleRun[]>(ruleRunsQueryKey(ruleId), (runs) =>
        runs?.map((run) =>
          run.id === action.runId
            ? { ...run, actions: run.actions.map((item) => (item.id === action.id ? action : item)) }
            : run,
        ),
      );
    },
  });
}
