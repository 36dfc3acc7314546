import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api-client.ts';

/**
 * The words for a refused call (spec §8: "the server's message, else <fallback>"), in the reader's language. The
 * server's message is English and is shown as it is to an English reader; any other reader gets the same refusal
 * worded from the app's error catalogue by the answer's code (every code has every language; a test enforces it).
 * A server fault or a lost connection shows the caller's fallback.
 */
export function useServerMessage(): (error: unknown, fallback: string) => string {
  const { t, i18n } = useTranslation('errors');
  return useCallback(
    (error, fallback) => {
      if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) return fallback;
      if (i18n.resolvedLanguage === 'en') return error.message;
      return t(`codes.${error.code}`, { defaultValue: fallback });
    },
    [t, i18n],
  );
}
