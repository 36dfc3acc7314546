import { THB_PER_UNIT, type AdAccount, type ScaledRuleTemplate } from '@adpilot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { RULES_QUERY_KEY } from './rules.ts';

export function getRuleTemplates(currency: string | undefined, signal?: AbortSignal): Promise<ScaledRuleTemplate[]> {
  return api.get<ScaledRuleTemplate[]>('/rules/templates', { signal, ...(currency ? { query: { currency } } : {}) });
}

export function ruleTemplatesQueryOptions(currency?: string) {
  return queryOptions({
    queryKey: [...RULES_QUERY_KEY, 'templates', currency ?? null] as const,
    queryFn: ({ signal }) => getRuleTemplates(currency, signal),
    // The templates ship with the server: they change with a deployment, not while the page is open.
    staleTime: Infinity,
  });
}

/** The templates with their amounts in `currency` (the server's baht originals without one; ADR 0132). */
export function useRuleTemplates(currency?: string) {
  return useQuery(ruleTemplatesQueryOptions(currency));
}

/** The workspace's accounts by currency, the currency most accounts bill in first (on a tie, the first listed). */
export function accountCurrencies(
  accounts: readonly Pick<AdAccount, 'id' | 'currency'>[],
): { currency: string; adAccountIds: string[]; scalable: boolean }[] {
  const groups = new Map<string, string[]>();
  for (const account of accounts) groups.set(account.currency, [...(groups.get(account.currency) ?? []), account.id]);
  return [...groups]
    .map(([currency, adAccountIds]) => ({ currency, adAccountIds, scalable: Object.hasOwn(THB_PER_UNIT, currency) }))
    .sort((a, b) => b.adAccountIds.length - a.adAccountIds.length);
}
