import { QUERY_STALE_MS, type AdAccount } from '@adpilot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client.ts';

/*
 * The ad-accounts list is read by more than one feature (the Ad Accounts page, the dashboard's count), so its
 * query lives here rather than in either feature: one key, one fetcher, one set of options (ADR 0026).
 */
export const AD_ACCOUNTS_QUERY_KEY = ['ad-accounts'] as const;

/** A sync runs in the background; the list is polled this often until every account has settled. */
const SYNC_POLL_INTERVAL_MS = 2_000;

export function getAdAccounts(signal?: AbortSignal): Promise<AdAccount[]> {
  return api.get<AdAccount[]>('/ad-accounts', { signal });
}

export function isSyncing(account: Pick<AdAccount, 'sync_status'>): boolean {
  return account.sync_status === 'queued' || account.sync_status === 'syncing';
}

/** The list's refetch interval: every 2 s while any account is queued or syncing, otherwise none. */
export function syncPollInterval(accounts: Pick<AdAccount, 'sync_status'>[] | undefined): number | false {
  return accounts?.some(isSyncing) ? SYNC_POLL_INTERVAL_MS : false;
}

export function adAccountsQueryOptions() {
  return queryOptions({
    queryKey: AD_ACCOUNTS_QUERY_KEY,
    queryFn: ({ signal }) => getAdAccounts(signal),
    // Spec §9 names this list's 5 minutes explicitly; set here so it holds whatever the app default becomes.
    staleTime: QUERY_STALE_MS,
    refetchInterval: (query) => syncPollInterval(query.state.data),
  });
}

export function useAdAccounts() {
  return useQuery(adAccountsQueryOptions());
}
