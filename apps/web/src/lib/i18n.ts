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

type Catalogues = Record<string, ResourceLanguage>;

// Each language's `locales/<language>/<namespace>.json` files, one chunk per language, fetched when the language is
// first needed: a page's first download carries the catalogues of its own language only (ADR 0138). Every file
// becomes a namespace, so a feature adds its catalogue by adding files.
const loaders: Record<Language, () => Promise<Catalogues>> = {
  en: () => import('../locales/en/catalogues.ts').then((module) => module.catalogues),
  th: () => import('../locales/th/catalogues.ts').then((module) => module.catalogues),
};

const loaded = new Set<Language>();
const loading = new Map<Language, Promise<void>>();

function addCatalogues(language: Language, catalogues: Catalogues): void {
  const namespaces: Record<string, ResourceLanguage> = {};
  for (const [path, catalogue] of Object.entries(catalogues)) {
    const namespace = /([^/]+)\.json$/.exec(path)?.[1];
    if (namespace) namespaces[namespace] = catalogue;
  }
  // The activity codes' words are the catalogue the server's e-mails and webhooks use too (ADR 0051): one copy,
  // kept in contracts, put into the `activity` namespace next to the page's own texts.
  namespaces.activity = { ...(namespaces.activity as object), ...ACTIVITY_MESSAGES[language] };
  for (const [namespace, catalogue] of Object.entries(namespaces))
    i18n.addResourceBundle(language, namespace, catalogue, false, true, { skipCopy: true });
  loaded.add(language);
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** True once the language's catalogues are in (its texts render at once). */
export function isLanguageLoaded(language: Language): boolean {
  return loaded.has(language);
}

/** Fetches the language's catalogues once; a failed fetch is tried again on the next call. */
export function loadLanguage(language: Language): Promise<void> {
  if (loaded.has(language)) return Promise.resolve();
  let pending = loading.get(language);
  if (!pending) {
    pending = loaders[language]().then(
      (catalogues) => {
        addCatalogues(language, catalogues);
        loading.delete(language);
      },
      (error: unknown) => {
        loading.delete(language);
        throw error;
      },
    );
    loading.set(language, pending);
  }
  return pending;
}

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

/**
 * The languages the current choice shows: the chosen one, or under the page mix both (an English shell, Thai
 * pages).
 */
function languagesShown(): Language[] {
  const choice = readLanguageChoice();
  return choice ? [choice] : [...LANGUAGES];
}

/** Fetches the catalogues of the languages the current choice shows; the app renders once they are in. */
export function loadShownLanguages(): Promise<void> {
  return Promise.all(languagesShown().map(loadLanguage)).then(() => undefined);
}

function switchToChoice(): void {
  if (i18n.language !== shellLanguage()) void i18n.changeLanguage(shellLanguage());
  for (const listener of choiceListeners) listener();
}

// A language not shown yet is fetched first, so the switch never shows a text's key in its place.
function applyChoice(): void {
  if (languagesShown().every(isLanguageLoaded)) switchToChoice();
  else void loadShownLanguages().then(switchToChoice, () => undefined);
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
  // Filled by loadLanguage; no backend, so a text of a language not loaded yet would show its key.
  resources: {},
  lng: shellLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: ['common'],
  defaultNS: 'common',
  // React escapes what it renders; escaping twice would show entities such as &amp;.
  interpolation: { escapeValue: false },
  initAsync: false,
});

export { i18n };
