import type { ApproveAllResult, Proposal, RuleActionRecord } from '@adpilot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PROPOSALS_QUERY_KEY } from '../../../api/proposals.ts';
import { RULES_QUERY_KEY } from '../../../api/rules.ts';
import { api } from '../../../lib/api-client.ts';

export type Decision =
  { kind: 'approve'; id: string } | { kind: 'reject'; id: string } | { kind: 'all'; runId: string };

function decide(decision: Decision): Promise<unknown> {
  if (decision.kind === 'all') return api.post<ApproveAllResult>(`/rules/runs/${decision.runId}/approve-all`);
  if (decision.kind === 'approve')
    return api.post<{ proposal: Proposal; action: RuleActionRecord }>(`/proposals/${decision.id}/approve`);
  return api.post<Proposal>(`/proposals/${decision.id}/reject`);
}

/**
 * Approve, reject or approve a run's all. Whatever the answer (a refusal closes a stale proposal too), the
 * proposals and the rules' runs are read again.
 */
export function useDecideProposal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decide,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: PROPOSALS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: RULES_QUERY_KEY });
    },
  });
}
