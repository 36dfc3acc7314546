import type { Proposal } from '@adpilot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client.ts';

/*
 * The pending proposals are read by the Inbox and by the shell's count beside its nav link: one key, one fetcher
 * (ADR 0026). The Inbox's decisions invalidate this prefix, so the count follows them.
 */
export const PROPOSALS_QUERY_KEY = ['proposals'] as const;

/** How often the shell asks again: a rule's run can propose at any minute. */
const REFRESH_MS = 60_000;

export function pendingProposalsQueryOptions() {
  return queryOptions({
    queryKey: [...PROPOSALS_QUERY_KEY, 'pending'] as const,
    queryFn: ({ signal }) => api.get<Proposal[]>('/proposals', { signal, query: { status: 'pending' } }),
    refetchInterval: REFRESH_MS,
  });
}

export const usePendingProposals = () => useQuery(pendingProposalsQueryOptions());
