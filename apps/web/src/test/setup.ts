import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { i18n } from '../lib/i18n.ts';
import { stubMatchMedia } from './match-media.ts';

beforeEach(async () => {
  stubMatchMedia(false);
  await i18n.changeLanguage('en');
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.documentElement.className = '';
  vi.unstubAllGlobals();
});
