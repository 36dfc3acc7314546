import type { RuleTemplate } from '@adpilot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { RULES_QUERY_KEY } from './rules.ts';

export function getRuleTemplates(signal?: AbortSignal): Promise<RuleTemplate[]> {
  return api.get<RuleTemplate[]>('/rules/templates', { signal });
}

export function ruleTemplatesQueryOptions() {
  return queryOptions({
    queryKey: [...RULES_QUERY_KEY, 'templates'] as const,
    queryFn: ({ signal }) => getRuleTemplates(signal),
    // The templates ship with the server: they change with a deployment, not while the page is open.
    staleTime: Infinity,
  });
}

export function useRuleTemplates() {
  return useQuery(ruleTemplatesQueryOptions());
}
