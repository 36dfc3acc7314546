import i18n, { type ResourceLanguage } from 'i18next';
import { useSyncExternalStore } from 'react';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '@adpilot/contracts';

export const LANGUAGES = ['en', 'th'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The language of a browser that asks for none we have. */
const DEFAULT_LANGUAGE: Language = 'en';

/** What the menu stores for "Page default": the explicit choice of the per-page mix (ADR 0130). */
const PAGE_MIX = 'auto';

type Catalogues = Record<string, ResourceLanguage>;

/**
 * The namespaces of the public pages (landing, sign-in, registration, password) and of the shell: each language's
 * `first` chunk. Every other namespace is in its `rest` chunk, fetched with the first page that is not one of those
 * (ADR 0138). `locales/<language>/first.ts` and `rest.ts` list the same files.
 */
export const FIRST_NAMESPACES = ['common', 'auth', 'landing', 'subscription', 'errors', 'validation'] as const;

type Part = 'first' | 'rest';

// A page's first download carries the catalogues of its own language only, and of the namespaces it reads.
const loaders: Record<Language, Record<Part, () => Promise<Catalogues>>> = {
  en: {
    first: () => import('../locales/en/first.ts').then((module) => module.catalogues),
    rest: () =>
      import('../locales/en/rest.ts').then((module) => withActivity(module.catalogues, module.activityMessages)),
  },
  th: {
    first: () => import('../locales/th/first.ts').then((module) => module.catalogues),
    rest: () =>
      import('../locales/th/rest.ts').then((module) => withActivity(module.catalogues, module.activityMessages)),
  },
};

/** The page's own activity texts with the codes' words shared with the server (ADR 0051) over them. */
function withActivity(catalogues: Catalogues, activityMessages: object): Catalogues {
  return { ...catalogues, './activity.json': { ...catalogues['./activity.json'], ...activityMessages } };
}

const loaded = new Set<`${Language}:${Part}`>();
const loading = new Map<`${Language}:${Part}`, Promise<void>>();
/** Set once a page beyond the public ones was asked for: from then on a language switch fetches both parts. */
let restWanted = false;

function addCatalogues(language: Language, catalogues: Catalogues): void {
  for (const [path, catalogue] of Object.entries(catalogues)) {
    const namespace = /([^/]+)\.json$/.exec(path)?.[1];
    if (namespace) i18n.addResourceBundle(language, namespace, catalogue, false, true, { skipCopy: true });
  }
}

function partsWanted(): Part[] {
  return restWanted ? ['first', 'rest'] : ['first'];
}

function loadPart(language: Language, part: Part): Promise<void> {
  const key = `${language}:${part}` as const;
  if (loaded.has(key)) return Promise.resolve();
  let pending = loading.get(key);
  if (!pending) {
    pending = loaders[language][part]().then(
      (catalogues) => {
        addCatalogues(language, catalogues);
        loaded.add(key);
        loading.delete(key);
      },
      (error: unknown) => {
        loading.delete(key);
        throw error;
      },
    );
    loading.set(key, pending);
  }
  return pending;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** True once the language's catalogues wanted so far are in (its texts render at once). */
export function isLanguageLoaded(language: Language): boolean {
  return partsWanted().every((part) => loaded.has(`${language}:${part}`));
}

/** Fetches the language's catalogues wanted so far, once each; a failed fetch is tried again on the next call. */
export function loadLanguage(language: Language): Promise<void> {
  return Promise.all(partsWanted().map((part) => loadPart(language, part))).then(() => undefined);
}

/**
 * Every namespace from now on, for the languages shown: a page beyond the public ones (lazy-page.ts) and a signed-in
 * start (main.tsx) wait for it.
 */
export function loadAllCatalogues(): Promise<void> {
  restWanted = true;
  return loadShownLanguages();
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
