import { AUTH_MESSAGES } from '@adpilot/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

const keyByMessage = new Map<string, string>(Object.entries(AUTH_MESSAGES).map(([key, message]) => [message, key]));

/**
 * The contracts' schemas speak English (spec §5 texts, shared with the server); this shows a message
 * in the current language by looking its key up in the auth catalogue. Unknown messages pass through.
 */
export function useValidationMessage(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation('auth');
  return useCallback(
    (message) => {
      if (!message) return undefined;
      const key = keyByMessage.get(message);
      return key ? t(`validation.${key}`) : message;
    },
    [t],
  );
}
