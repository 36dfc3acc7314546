import type { RuleDraft } from '@adpilot/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** "Ask AI": a rule drafted from a sentence, switched off and not saved; the builder opens it for review. */
export function draftRule(prompt: string): Promise<RuleDraft> {
  return api.post<RuleDraft>('/ai/draft-rule', { prompt });
}

export function useDraftRule() {
  return useMutation({ mutationFn: draftRule });
}
