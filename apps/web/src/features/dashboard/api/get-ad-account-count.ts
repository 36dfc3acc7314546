import { QUERY_STALE_MS, type AdAccount } from '@adpilot/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * The number of connected ad accounts. It shares the Ad Accounts page's cache key (same endpoint, same data),
 * so a connect or disconnect there, which invalidates the key, updates this count too.
 */
export function useAdAccountCount() {
  return useQuery({
    queryKey: ['ad-accounts'],
    queryFn: ({ signal }) => api.get<AdAccount[]>('/ad-accounts', { signal }),
    staleTime: QUERY_STALE_MS,
    select: (accounts) => accounts.length,
  });
}
