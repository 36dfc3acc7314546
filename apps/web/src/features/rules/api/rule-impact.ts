import type { RuleImpact } from '@adpilot/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { RULES_QUERY_KEY, rulePath } from './rules.ts';

export const ruleImpactQueryKey = (id: string, from: string, to: string) =>
  [...RULES_QUERY_KEY, 'impact', id, from, to] as const;

export function getRuleImpact(id: string, from: string, to: string, signal?: AbortSignal): Promise<RuleImpact> {
  const query = new URLSearchParams({ from, to });
  return api.get<RuleImpact>(`${rulePath(id)}/impact?${query.toString()}`, { signal });
}

/** What the rule's applied actions did over a range of days (the previous range stays shown while a new one loads). */
export function useRuleImpact(id: string, range: { from: string; to: string } | null) {
  const { from = '', to = '' } = range ?? {};
  return useQuery({
    queryKey: ruleImpactQueryKey(id, from, to),
    queryFn: ({ signal }) => getRuleImpact(id, from, to, signal),
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
}
