import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';

/** The words for a refused call in the reader's language, by its code; a server fault or no connection: the fallback. */
export function useErrorText(): (error: unknown, fallback: string) => string {
  const { t } = useTranslation('errors');
  return useCallback(
    (error, fallback) => {
      if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) return fallback;
      return t(`errors:codes.${error.code}`, { defaultValue: fallback });
    },
    [t],
  );
}
