import type { Rule } from '@adpilot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { storeRule } from './rule-cache.ts';
import { rulePath } from './rules.ts';

export function toggleRule(id: string): Promise<Rule> {
  return api.post<Rule>(`${rulePath(id)}/toggle`);
}

interface ToggleCallbacks {
  onSuccess?: (rule: Rule) => void;
  onError?: (error: Error, rule: Rule) => void;
}

/** The badge changes when the server has answered, from its answer: a refused activation never shows as active. */
export function useToggleRule({ onSuccess, onError }: ToggleCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: Rule) => toggleRule(rule.id),
    onSuccess: (rule) => {
      storeRule(queryClient, rule);
      onSuccess?.(rule);
    },
    onError,
  });
}
