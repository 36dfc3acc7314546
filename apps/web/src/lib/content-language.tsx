import type { i18n as I18n } from 'i18next';
import { use, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n, isLanguageLoaded, loadLanguage, useLanguageChoice, type Language } from './i18n.ts';

// One translator per language other than the shell's, sharing the shell's catalogues; made on first use.
const contentTranslators = new Map<Language, I18n>();

function translatorFor(language: Language): I18n {
  if (language === i18n.language) return i18n;
  let translator = contentTranslators.get(language);
  if (!translator) {
    translator = i18n.cloneInstance({ lng: language });
    contentTranslators.set(language, translator);
  }
  return translator;
}

interface ContentLanguageProps {
  /** The language of this content under the page mix, "Page default" (spec §1: Rules and Subscription are Thai). */
  fallback: Language;
  children: ReactNode;
}

/**
 * A page's content in its own language, inside a shell that keeps the user's. Everything rendered below it
 * (headings, dialogs opened from it, its toasts) translates with this language; the sidebar, the menu and the
 * language picker stay outside it. Unless the user chose the page mix, the page is in the one language of the shell
 * (the user's choice, else the browser's; ADR 0130).
 */
export function ContentLanguage({ fallback, children }: ContentLanguageProps) {
  const choice = useLanguageChoice();
  // Re-render when the shell's language changes, so the translator is picked against the current one.
  useTranslation();
  const language = choice ?? fallback;
  // The page mix loads both languages before the first render; this waits only if a language is somehow not in yet.
  if (!isLanguageLoaded(language)) use(loadLanguage(language));
  return (
    <I18nextProvider i18n={translatorFor(language)}>
      <div lang={language} className="contents">
        {children}
      </div>
    </I18nextProvider>
  );
}
