import type { Rule } from '@adpilot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client.ts';

/*
 * The rules list is read by the Rules pages and the dashboard's Active Rules card: one key, one fetcher (ADR 0026).
 * Every rules query sits under this prefix, so one invalidation refreshes the list, the details and the runs.
 */
export const RULES_QUERY_KEY = ['rules'] as const;

export function getRules(signal?: AbortSignal): Promise<Rule[]> {
  return api.get<Rule[]>('/rules', { signal });
}

export function rulesQueryOptions() {
  return queryOptions({ queryKey: [...RULES_QUERY_KEY, 'list'] as const, queryFn: ({ signal }) => getRules(signal) });
}

/** The caller's rules, newest first (the server's order). */
export function useRules() {
  return useQuery(rulesQueryOptions());
}
