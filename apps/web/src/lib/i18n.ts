import i18n, { type ResourceLanguage } from 'i18next';
import { useSyncExternalStore } from 'react';
import { initReactI18next } from 'react-i18next';
import { ACTIVITY_MESSAGES, STORAGE_KEYS } from '@adpilot/contracts';

export const LANGUAGES = ['en', 'th'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The language of a browser that asks for none we have. */
const DEFAULT_LANGUAGE: Language = 'en';

/** What the menu stores for "Page default": the explicit choice of the per-page mix (ADR 0130). */
const PAGE_MIX = 'auto';

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

/**
 * The browser's own preference among ours: the first of `navigator.languages` whose primary tag we speak (th-TH →
 * th), else English.
 */
export function browserLanguage(): Language {
  const asked = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of asked) {
    const primary = tag?.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * The language everything is in: the user's choice from the language menu, else (first visit, nothing chosen) the
 * browser's; null only when the user chose "Page default", the per-page mix (ADR 0130).
 */
export function readLanguageChoice(): Language | null {
  const stored = localStorage.getItem(STORAGE_KEYS.language);
  if (isLanguage(stored)) return stored;
  if (stored === PAGE_MIX) return null;
  return browserLanguage();
}

const choiceListeners = new Set<() => void>();

/** The shell's language: the user's choice or the browser's, English under the page mix. No page changes it (ADR 0025). */
export function shellLanguage(): Language {
  return readLanguageChoice() ?? DEFAULT_LANGUAGE;
}

function applyChoice(): void {
  if (i18n.language !== shellLanguage()) void i18n.changeLanguage(shellLanguage());
  for (const listener of choiceListeners) listener();
}

/** Stores the language chosen in the menu (null: the per-page mix) and switches the whole UI to it. */
export function setLanguageChoice(language: Language | null): void {
  localStorage.setItem(STORAGE_KEYS.language, language ?? PAGE_MIX);
  applyChoice();
}

// A choice made in another tab of the app applies here too, so two open tabs never disagree.
window.addEventListener('storage', (event) => {
  if (event.key === STORAGE_KEYS.language || event.key === null) applyChoice();
});
// Nothing chosen yet: the browser's language follows the browser's settings.
window.addEventListener('languagechange', applyChoice);

function subscribeToChoice(listener: () => void): () => void {
  choiceListeners.add(listener);
  return () => choiceListeners.delete(listener);
}

/** The current language (null = the page mix chosen), re-rendering when it changes. */
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
