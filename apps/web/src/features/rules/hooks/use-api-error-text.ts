import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { PLAN_NAMES, type PlanId } from '@adpilot/contracts';
import { ApiError } from '../../../lib/api-client.ts';

const planName = (id: string) => (Object.hasOwn(PLAN_NAMES, id) ? PLAN_NAMES[id as PlanId] : id);

/**
 * The words for a failed call in the page's language, chosen by the answer's code, never by its English message:
 * this page's own texts first (`rules:apiErrors.<CODE>`, e.g. why a revert is refused), then the app's error
 * catalogue. A server fault or a lost connection shows the caller's fallback.
 */
export function useApiErrorText(): (error: unknown, fallback: string) => string {
  const { t } = useTranslation(['rules', 'errors']);
  return useCallback(
    (error, fallback) => {
      if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) return fallback;
      // A refusal's figures (ADR 0058: a plan's name and limit) fill the words that name them.
      const params = {
        ...error.params,
        ...(typeof error.params.plan === 'string' ? { plan: planName(error.params.plan) } : {}),
      };
      return t([`rules:apiErrors.${error.code}`, `errors:codes.${error.code}`], { ...params, defaultValue: fallback });
    },
    [t],
  );
}
