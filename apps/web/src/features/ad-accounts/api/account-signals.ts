import type {
  AdAccount,
  AnomalyMuteResponse,
  EntityRow,
  MonthlyBudget,
  SetMonthlyBudgetRequest,
} from '@adpilot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AD_ACCOUNTS_QUERY_KEY } from '../../../api/ad-accounts.ts';
import { api } from '../../../lib/api-client.ts';

/** An account's monthly budgets and its anomaly mute (ADR 0124, 0125), over /ad-accounts/{id}/…. */

const path = (id: string, rest: string) => `/ad-accounts/${encodeURIComponent(id)}/${rest}`;
const budgetsKey = (id: string) => [...AD_ACCOUNTS_QUERY_KEY, id, 'monthly-budgets'] as const;

export function getMonthlyBudgets(id: string, signal?: AbortSignal): Promise<MonthlyBudget[]> {
  return api.get<MonthlyBudget[]>(path(id, 'monthly-budgets'), { signal });
}

export function monthlyBudgetsQueryOptions(id: string) {
  return queryOptions({ queryKey: budgetsKey(id), queryFn: ({ signal }) => getMonthlyBudgets(id, signal) });
}

/** Read only while the account's budget panel is open. */
export function useMonthlyBudgets(id: string, enabled: boolean) {
  return useQuery({ ...monthlyBudgetsQueryOptions(id), enabled });
}

/** Sets (or with `amount: null` removes) a budget; the answer is the account's whole list, put in the cache. */
export function useSetMonthlyBudget(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetMonthlyBudgetRequest) => api.put<MonthlyBudget[]>(path(id, 'monthly-budgets'), body),
    onSuccess: (budgets) => queryClient.setQueryData(budgetsKey(id), budgets),
  });
}

/** The account's campaigns a budget can be set on: the first page of its campaign rows, by name. */
export function useAccountCampaigns(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...AD_ACCOUNTS_QUERY_KEY, id, 'campaigns'] as const,
    queryFn: ({ signal }) =>
      api.get<EntityRow[]>('/entities', {
        query: { level: 'campaign', adAccountId: id, sort: 'name', limit: 200 },
        signal,
      }),
    enabled,
  });
}

/** "Mute 24 h" (hours 24) or lift it (hours 0); the account in the list takes the answer's end at once. */
export function useMuteAnomalies(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hours: number) => api.post<AnomalyMuteResponse>(path(id, 'anomalies/mute'), { hours }),
    onSuccess: ({ muted_until }) =>
      queryClient.setQueryData<AdAccount[]>(AD_ACCOUNTS_QUERY_KEY, (accounts) =>
        accounts?.map((account) => (account.id === id ? { ...account, anomaly_muted_until: muted_until } : account)),
      ),
  });
}
