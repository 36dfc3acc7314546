import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * Spec §8: a failed AI call shows the server's reason, else the tab's fallback ("Analysis failed" …). The reason is
 * chosen by the answer's code and worded from the app's error catalogue in the page's language; the provider's
 * failures (AI_*) are worth showing even as 5xx, any other server fault or a lost connection shows the fallback.
 */
export function useAiErrorText(): (error: unknown, fallback: string) => string {
  const { t } = useTranslation('errors');
  return useCallback(
    (error, fallback) => {
      if (!(error instanceof ApiError) || error.status === 0) return fallback;
      if (error.status >= 500 && !error.code.startsWith('AI_')) return fallback;
      return t(`codes.${error.code}`, { defaultValue: fallback });
    },
    [t],
  );
}
