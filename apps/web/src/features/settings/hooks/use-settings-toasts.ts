import type { ConnectionResult, ConnectionService } from '@adpilot/contracts';
import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { i18n, useLanguageChoice } from '../../../lib/i18n.ts';

/**
 * Spec §8 words the Settings toasts in Thai on an otherwise English page: they are Thai until the user picks a
 * language in the menu, then they follow that choice.
 */
export function useSettingsToasts() {
  const choice = useLanguageChoice();
  const t = i18n.getFixedT(choice ?? 'th', 'settings');
  const service = useCallback((name: ConnectionService) => t(`services.${name}`), [t]);
  return {
    saved: () => toast.success(t('toast.saved')),
    saveRefused: () => toast.error(t('toast.saveRefused')),
    saveError: () => toast.error(t('toast.saveError')),
    tested: (result: ConnectionResult) => {
      if (result.success) return toast.success(t('toast.testSuccess', { service: service(result.service) }));
      const reason = t(`codes.${result.code}`);
      const message = result.detail ? `${reason} (${result.detail})` : reason;
      return toast.error(t('toast.testFailure', { service: service(result.service), message }));
    },
    testError: (name: ConnectionService) => toast.error(t('toast.testError', { service: service(name) })),
  };
}
