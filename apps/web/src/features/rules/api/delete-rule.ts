import type { Rule } from '@adpilot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { forgetRule } from './rule-cache.ts';
import { rulePath } from './rules.ts';

export function deleteRule(id: string): Promise<void> {
  return api.delete<void>(rulePath(id));
}

interface DeleteCallbacks {
  onSuccess?: (rule: Rule) => void;
  onError?: (error: Error, rule: Rule) => void;
}

export function useDeleteRule({ onSuccess, onError }: DeleteCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: Rule) => deleteRule(rule.id),
    onSuccess: (_data, rule) => {
      forgetRule(queryClient, rule.id);
      onSuccess?.(rule);
    },
    onError,
  });
}
