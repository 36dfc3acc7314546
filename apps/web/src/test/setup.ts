import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, vi } from 'vitest';
import { i18n, LANGUAGES, loadAllCatalogues, loadLanguage } from '../lib/i18n.ts';
import { stubMatchMedia } from './match-media.ts';

// Pages are lazy chunks: on a machine busy with other work their first transform can outlast the 1 s default.
configure({ asyncUtilTimeout: 5_000 });

beforeEach(async () => {
  stubMatchMedia(false);
  // The suites were written for the per-page mix (Rules and Subscription Thai, the rest English): they start with it
  // chosen, as a user who picked "Page default" would (ADR 0130); i18n.test.tsx covers the first visit.
  localStorage.setItem('language', 'auto');
  // The app fetches a language's catalogues when first shown (ADR 0138); the suites read both at once.
  await loadAllCatalogues();
  await Promise.all(LANGUAGES.map(loadLanguage));
  await i18n.changeLanguage('en');
});

afterEach(() => {
  cleanup();
  // The toast store outlives a render: a toast left from one test (same id) would swallow the next test's toast.
  toast.remove();
  localStorage.clear();
  sessionStorage.clear();
  document.documentElement.className = '';
  vi.unstubAllGlobals();
});
