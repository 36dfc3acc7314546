import { useTranslation } from 'react-i18next';
import type { Words } from '../lib/explain.ts';

/** The translator and language of the page (its ContentLanguage), for the explanation renderers. */
export function useWords(): Words {
  const { t, i18n } = useTranslation('rules');
  return { t, language: i18n.language };
}
