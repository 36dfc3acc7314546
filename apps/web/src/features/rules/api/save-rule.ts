import type { CreateRuleRequest, Rule, UpdateRuleRequest } from '@adpilot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { storeRule } from './rule-cache.ts';
import { rulePath } from './rules.ts';

export function createRule(body: CreateRuleRequest): Promise<Rule> {
  return api.post<Rule>('/rules', body);
}

export function updateRule(id: string, body: UpdateRuleRequest): Promise<Rule> {
  return api.patch<Rule>(rulePath(id), body);
}

/** Creates the rule, or with an id replaces every field of it; the answer goes straight into the cache. */
export function useSaveRule(id?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateRuleRequest) => (id ? updateRule(id, body) : createRule(body)),
    onSuccess: (rule) => storeRule(queryClient, rule),
  });
}
