import type { RuleActionRecord, RuleRun } from '@adpilot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PROPOSALS_QUERY_KEY } from '../../../api/proposals.ts';
import { api } from '../../../lib/api-client.ts';
import { RULES_QUERY_KEY, rulePath, ruleQueryKey } from './rules.ts';

const RUN_POLL_INTERVAL_MS = 1_500;
/** How long "Run now" waits for its run's outcome before leaving it to the history. */
export const RUN_OUTCOME_WAIT_MS = 60_000;

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

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A run started now and how it ended: `run` is null when it had not finished within the wait. */
export interface RunNowResult {
  runId: string;
  run: RuleRun | null;
}

/**
 * Starts a run, then reads the history (refreshing the cache the page shows) until that run has finished, for at
 * most `waitMs`: the caller says what happened, not just "queued".
 */
export function useRunRuleNow(id: string, { waitMs = RUN_OUTCOME_WAIT_MS, intervalMs = RUN_POLL_INTERVAL_MS } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<RunNowResult> => {
      const { runId } = await runRuleNow(id);
      const deadline = Date.now() + waitMs;
      for (;;) {
        const runs = await queryClient.fetchQuery({ ...ruleRunsQueryOptions(id), staleTime: 0 });
        const run = runs.find((item) => item.id === runId);
        if (run && !isOpen(run)) return { runId, run };
        if (Date.now() + intervalMs > deadline) return { runId, run: null };
        await pause(intervalMs);
      }
    },
    // lastTriggered comes with the rule's next read; the history was refreshed by the reads above.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ruleRunsQueryKey(id) }),
        queryClient.invalidateQueries({ queryKey: ruleQueryKey(id) }),
        queryClient.invalidateQueries({ queryKey: [...RULES_QUERY_KEY, 'list'] }),
        // A run in approve mode proposes: the shell's Inbox count and the Inbox follow at once.
        queryClient.invalidateQueries({ queryKey: PROPOSALS_QUERY_KEY }),
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
