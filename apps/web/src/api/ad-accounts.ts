import {
  addDays,
  isKnownTimeZone,
  localDate,
  QUERY_STALE_MS,
  startOfLocalDay,
  type AdAccount,
} from '@adpilot/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../lib/api-client.ts';
import { localDay } from '../lib/format.ts';

/*
 * The ad-accounts list is read by more than one feature (the Ad Accounts page, the dashboard's count), so its
 * query lives here rather than in either feature: one key, one fetcher, one set of options (ADR 0026).
 */
export const AD_ACCOUNTS_QUERY_KEY = ['ad-accounts'] as const;

/** A sync runs in the background; the list is polled this often until every account has settled. */
const SYNC_POLL_INTERVAL_MS = 2_000;
/**
 * How long one stretch of unsettled accounts is polled. A sync still unsettled after this is stuck: the page stops
 * asking and shows the last state; the server's hourly maintenance turns it into an error (ADR 0036).
 */
export const SYNC_POLL_LIMIT_MS = 5 * 60_000;

/** When the list's query began its current stretch of polling; per query object, so a new client starts afresh. */
const pollingSince = new WeakMap<object, number>();

export function getAdAccounts(signal?: AbortSignal): Promise<AdAccount[]> {
  return api.get<AdAccount[]>('/ad-accounts', { signal });
}

export function isSyncing(account: Pick<AdAccount, 'sync_status'>): boolean {
  return account.sync_status === 'queued' || account.sync_status === 'syncing';
}

/** The account's older history is still being fetched (the backfill job, ADR 0103): its card shows the progress. */
export function isBackfilling(account: Partial<Pick<AdAccount, 'history'>>): boolean {
  return account.history !== undefined && account.history.from !== null && !account.history.complete;
}

type Unsettled = Pick<AdAccount, 'sync_status'> & Partial<Pick<AdAccount, 'history'>>;
const unsettled = (account: Unsettled) => isSyncing(account) || isBackfilling(account);

/**
 * The list's refetch interval: every 2 s while any account is queued, syncing or fetching its history, for at most
 * the poll limit.
 */
export function syncPollInterval(accounts: Unsettled[] | undefined, pollingForMs = 0): number | false {
  if (!accounts?.some(unsettled)) return false;
  return pollingForMs < SYNC_POLL_LIMIT_MS ? SYNC_POLL_INTERVAL_MS : false;
}

/** A new "Sync now" deserves its own stretch of polling, even while another account is stuck. */
export function restartSyncPolling(queryClient: QueryClient): void {
  const query = queryClient.getQueryCache().find({ queryKey: AD_ACCOUNTS_QUERY_KEY, exact: true });
  if (query) pollingSince.delete(query);
}

export function adAccountsQueryOptions() {
  return queryOptions({
    queryKey: AD_ACCOUNTS_QUERY_KEY,
    queryFn: ({ signal }) => getAdAccounts(signal),
    // Spec §9 names this list's 5 minutes explicitly; set here so it holds whatever the app default becomes.
    staleTime: QUERY_STALE_MS,
    refetchInterval: (query) => {
      if (!query.state.data?.some(unsettled)) {
        pollingSince.delete(query);
        return false;
      }
      const since = pollingSince.get(query) ?? Date.now();
      pollingSince.set(query, since);
      return syncPollInterval(query.state.data, Date.now() - since);
    },
  });
}

export function useAdAccounts() {
  return useQuery(adAccountsQueryOptions());
}

/** The currency an ad account bills in, once the list is read (undefined until then, or for an unknown id). */
export function useAdAccountCurrency(adAccountId: string | undefined): string | undefined {
  const { data } = useAdAccounts();
  return adAccountId ? data?.find((account) => account.id === adAccountId)?.currency : undefined;
}

/** A window's last day and the instant that day began, as the ad accounts count days. */
export interface AccountsToday {
  /** YYYY-MM-DD. */
  date: string;
  /** When `date` began there (ISO): "today" counted from it. */
  midnight: string;
  /** The zone that day is read in; null: no account, the browser's own. */
  timeZone: string | null;
}

/**
 * "Today" as the workspace's ad accounts count days, not the browser (ADR 0131): the latest local date among their
 * time zones, so a window ending today holds every action already applied to any of them. With no account (or none
 * whose zone is known), the browser's day.
 */
export function accountsToday(accounts: readonly Pick<AdAccount, 'timezone'>[], now = Date.now()): AccountsToday {
  let best: AccountsToday | null = null;
  for (const { timezone } of accounts) {
    if (!timezone || !isKnownTimeZone(timezone)) continue;
    const date = localDate(timezone, now);
    if (best && date <= best.date) continue;
    best = { date, midnight: new Date(startOfLocalDay(timezone, date)).toISOString(), timeZone: timezone };
  }
  if (best) return best;
  const browser = new Date(now);
  const midnight = new Date(browser.getFullYear(), browser.getMonth(), browser.getDate()).toISOString();
  return { date: localDay(0, browser), midnight, timeZone: null };
}

/** The last `days` days ending the accounts' today, as from/to dates. */
export function accountsDays(today: AccountsToday, days: number): { from: string; to: string } {
  return { from: addDays(today.date, -(days - 1)), to: today.date };
}

/** The accounts' today once the list has loaded (null before, so no window is asked for on the browser's day). */
export function useAccountsToday(): AccountsToday | null {
  const { data } = useQuery(adAccountsQueryOptions());
  return data ? accountsToday(data) : null;
}
