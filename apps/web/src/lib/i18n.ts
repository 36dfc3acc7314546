import i18n, { type ResourceLanguage } from 'i18next';
import { useSyncExternalStore } from 'react';
import { initReactI18next } from 'react-i18next';
import { ACTIVITY_MESSAGES, STORAGE_KEYS } from '@adpilot/contracts';

export const LANGUAGES = ['en', 'th'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The shell, and every page that declares no content language, is English until the user picks one. */
const DEFAULT_LANGUAGE: Language = 'en';

// Every `locales/<language>/<namespace>.json` becomes a namespace, so a feature adds its catalogue by adding files.
const catalogues = import.meta.glob<ResourceLanguage>('../locales/*/*.json', { eager: true, import: 'default' });

function buildResources(): Record<Language, ResourceLanguage> {
  const resources: Record<Language, ResourceLanguage> = { en: {}, th: {} };
  for (const [path, catalogue] of Object.entries(catalogues)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    const language = match?.[1];
    const namespace = match?.[2];
    if (isLanguage(language) && namespace) resources[language][namespace] = catalogue;
  }
  // The activity codes' words are the catalogue the server's e-mails and webhooks use too (ADR 0051): one copy,
  // kept in contracts, put into the `activity` namespace next to the page's own texts.
  for (const language of LANGUAGES)
    resources[language].activity = { ...(resources[language].activity as object), ...ACTIVITY_MESSAGES[language] };
  return resources;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

const resources = buildResources();

/** The user's explicit choice from the language menu, or null to follow each page's default. */
export function readLanguageChoice(): Language | null {
  const stored = localStorage.getItem(STORAGE_KEYS.language);
  return isLanguage(stored) ? stored : null;
}

const choiceListeners = new Set<() => void>();

/** The shell's language: the user's choice, else English. No page changes it (ADR 0025). */
export function shellLanguage(): Language {
  return readLanguageChoice() ?? DEFAULT_LANGUAGE;
}

function applyChoice(): void {
  if (i18n.language !== shellLanguage()) void i18n.changeLanguage(shellLanguage());
  for (const listener of choiceListeners) listener();
}

/** Stores (or clears, with null) the language chosen in the menu and switches the whole UI to it. */
export function setLanguageChoice(language: Language | null): void {
  if (language) localStorage.setItem(STORAGE_KEYS.language, language);
  else localStorage.removeItem(STORAGE_KEYS.language);
  applyChoice();
}

// A choice made in another tab of the app applies here too, so two open tabs never disagree.
window.addEventListener('storage', (event) => {
  if (event.key === STORAGE_KEYS.language || event.key === null) applyChoice();
});

function subscribeToChoice(listener: () => void): () => void {
  choiceListeners.add(listener);
  return () => choiceListeners.delete(listener);
}

/** The current menu choice (null = page default), re-rendering when it changes. */
export function useLanguageChoice(): Language | null {
  return useSyncExternalStore(subscribeToChoice, readLanguageChoice);
}

i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language;
});

void i18n.use(initReactI18next).init({
  resources,
  lng: shellLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: Object.keys(resources.en),
  defaultNS: 'common',
  // React escapes what it renders; escaping twice would show entities such as &amp;.
  interpolation: { escapeValue: false },
  initAsync: false,
});

export { i18n };
