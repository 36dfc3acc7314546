import { ACTIVITY_MESSAGES } from '@adpilot/contracts';
import type { ResourceLanguage } from 'i18next';

// Every other `<namespace>.json` beside this file, in one chunk fetched with the first signed-in or feature page
// (ADR 0138). A feature adds its catalogue by adding a file.
export const catalogues = import.meta.glob<ResourceLanguage>(
  [
    './*.json',
    '!./common.json',
    '!./auth.json',
    '!./landing.json',
    '!./subscription.json',
    '!./errors.json',
    '!./validation.json',
  ],
  { eager: true, import: 'default' },
);

// The activity codes' words are the catalogue the server's e-mails and webhooks use too (ADR 0051): one copy, kept in
// contracts, put into the `activity` namespace next to the page's own texts.
export const activityMessages = ACTIVITY_MESSAGES.en;
