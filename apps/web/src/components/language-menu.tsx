import { Languages } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, isLanguage, setLanguageChoice, useLanguageChoice } from '../lib/i18n.ts';

const AUTO = 'auto';

/**
 * English or Thai for everything (the browser's until the user picks), or "Page default" as an explicit choice: the
 * shell in English and each page's content in its own default (Thai on Rules and Subscription).
 */
export function LanguageMenu() {
  const { t } = useTranslation('common');
  const choice = useLanguageChoice();
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <Languages aria-hidden="true" className="size-4 shrink-0 text-gray-500 dark:text-gray-400" />
      <label htmlFor={id} className="sr-only">
        {t('language.label')}
      </label>
      <select
        id={id}
        value={choice ?? AUTO}
        onChange={(event) => setLanguageChoice(isLanguage(event.target.value) ? event.target.value : null)}
        className="h-8 min-w-0 flex-1 rounded-lg border border-gray-300 bg-white px-2 text-sm dark:border-gray-600 dark:bg-gray-800"
      >
        <option value={AUTO}>{t('language.auto')}</option>
        {LANGUAGES.map((language) => (
          <option key={language} value={language}>
            {t(`language.${language}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
