import type { ResourceLanguage } from 'i18next';

// The namespaces the public pages and the shell read (lib/i18n.ts FIRST_NAMESPACES), in the chunk every page's
// first render waits for (ADR 0138).
export const catalogues = import.meta.glob<ResourceLanguage>(
  ['./common.json', './auth.json', './landing.json', './subscription.json', './errors.json', './validation.json'],
  { eager: true, import: 'default' },
);
