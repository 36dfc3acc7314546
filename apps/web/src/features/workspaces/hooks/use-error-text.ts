import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * The words for a refused call in the reader's language, chosen by the answer's code: this feature's own texts first
 * (`workspaces:apiErrors.<CODE>`), then the app's catalogue. A server fault or a lost connection shows the fallback.
 */
export function useErrorText(): (error: unknown, fallback: string) => string {
  const { t } = useTranslation(['workspaces', 'errors']);
  return useCallback(
    (error, fallback) => {
      if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) return fallback;
      return t([`workspaces:apiErrors.${error.code}`, `errors:codes.${error.code}`], { defaultValue: fallback });
    },
    [t],
  );
}
