import type { Rule } from '@adpilot/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { ruleQueryKey, rulesQueryOptions } from './rules.ts';

/** A rule the server just answered replaces the cached one in the list and in its detail, with no refetch. */
export function storeRule(queryClient: QueryClient, rule: Rule): void {
  queryClient.setQueryData(ruleQueryKey(rule.id), rule);
  queryClient.setQueryData(rulesQueryOptions().queryKey, (rules) => {
    if (!rules) return rules;
    const known = rules.some((item) => item.id === rule.id);
    // A new rule is the newest: the list is newest first.
    return known ? rules.map((item) => (item.id === rule.id ? rule : item)) : [rule, ...rules];
  });
}

export function forgetRule(queryClient: QueryClient, id: string): void {
  queryClient.setQueryData(rulesQueryOptions().queryKey, (rules) => rules?.filter((item) => item.id !== id));
  queryClient.removeQueries({ queryKey: ruleQueryKey(id) });
}
