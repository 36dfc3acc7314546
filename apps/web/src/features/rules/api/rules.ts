import type { Rule } from '@adpilot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Every rules query sits under this prefix, so one invalidation refreshes the list, the details and the runs. */
export const RULES_QUERY_KEY = ['rules'] as const;
export const ruleQueryKey = (id: string) => [...RULES_QUERY_KEY, 'detail', id] as const;

const rulePath = (id: string) => `/rules/${encodeURIComponent(id)}`;

export function getRules(signal?: AbortSignal): Promise<Rule[]> {
  return api.get<Rule[]>('/rules', { signal });
}

export function getRule(id: string, signal?: AbortSignal): Promise<Rule> {
  return api.get<Rule>(rulePath(id), { signal });
}

export function rulesQueryOptions() {
  return queryOptions({ queryKey: [...RULES_QUERY_KEY, 'list'] as const, queryFn: ({ signal }) => getRules(signal) });
}

export function ruleQueryOptions(id: string) {
  return queryOptions({ queryKey: ruleQueryKey(id), queryFn: ({ signal }) => getRule(id, signal) });
}

/** The caller's rules, newest first (the server's order). */
export function useRules() {
  return useQuery(rulesQueryOptions());
}

export function useRule(id: string) {
  return useQuery(ruleQueryOptions(id));
}

export { rulePath };
