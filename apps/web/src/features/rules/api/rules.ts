import type { Rule } from '@adpilot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { RULES_QUERY_KEY } from '../../../api/rules.ts';
import { api } from '../../../lib/api-client.ts';

// The list's query is shared with the dashboard (api/rules.ts); the rest is this feature's own.
export { RULES_QUERY_KEY, rulesQueryOptions, useRules } from '../../../api/rules.ts';
export const ruleQueryKey = (id: string) => [...RULES_QUERY_KEY, 'detail', id] as const;

const rulePath = (id: string) => `/rules/${encodeURIComponent(id)}`;

export function getRule(id: string, signal?: AbortSignal): Promise<Rule> {
  return api.get<Rule>(rulePath(id), { signal });
}

export function ruleQueryOptions(id: string) {
  return queryOptions({ queryKey: ruleQueryKey(id), queryFn: ({ signal }) => getRule(id, signal) });
}

export function useRule(id: string) {
  return useQuery(ruleQueryOptions(id));
}

export { rulePath };
