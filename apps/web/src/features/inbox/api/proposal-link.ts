import type { ProposalLink } from '@adpilot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PROPOSALS_QUERY_KEY } from '../../../api/proposals.ts';
import { api } from '../../../lib/api-client.ts';

/*
 * The approve and reject links of the e-mail and LINE messages. Both calls are public (the token is the
 * permission) and about no chosen workspace, so a 401 is an answer and not a session to refresh.
 */
const publicCall = { retryOnUnauthorized: false, workspace: false } as const;

const linkKey = (token: string | null) => ['proposal-link', token] as const;

/** GET /api/proposal-links/:token: what the link would do; nothing changes. */
export function useProposalLink(token: string | null) {
  return useQuery({
    queryKey: linkKey(token),
    queryFn: ({ signal }) =>
      api.get<ProposalLink>(`/proposal-links/${encodeURIComponent(token ?? '')}`, { signal, ...publicCall }),
    enabled: Boolean(token),
    retry: false,
  });
}

/** POST /api/proposal-links/:token: approves or rejects, as the link says. */
export function useDecideByLink(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<ProposalLink>(`/proposal-links/${encodeURIComponent(token)}`, {}, publicCall),
    // A signed-in reader's Inbox and its count follow the decision, whatever the answer.
    onSettled: () => queryClient.invalidateQueries({ queryKey: PROPOSALS_QUERY_KEY }),
  });
}
