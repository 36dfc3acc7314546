import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

/** Copies a text and says so; a browser that refuses the clipboard is told to copy it by hand. */
export function useCopy(): (text: string, done: string) => Promise<void> {
  const { t } = useTranslation('agents');
  return async (text, done) => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(done);
    } catch {
      toast.error(t('copyFailed'));
    }
  };
}
