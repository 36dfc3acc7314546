import type { ResourceLanguage } from 'i18next';

// Every `<namespace>.json` beside this file, in one chunk loaded when the language is first needed (ADR 0138).
export const catalogues = import.meta.glob<ResourceLanguage>('./*.json', { eager: true, import: 'default' });
