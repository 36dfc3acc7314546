import { AD_ACCOUNT_MESSAGES } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en/ad-accounts.json';
import th from '../../locales/th/ad-accounts.json';
import { i18n } from '../../lib/i18n.ts';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

describe('ad-accounts catalogues', () => {
  it('Thai translates every English key', () => {
    expect(keysOf(th).sort()).toEqual(keysOf(en).sort());
  });

  it('English uses the exact texts the contracts share with the server', () => {
    const t = i18n.getFixedT('en', 'ad-accounts');
    expect(t('toast.connected', { count: 3 })).toBe(AD_ACCOUNT_MESSAGES.connected(3));
    expect(t('toast.connected', { count: 1 })).toBe(AD_ACCOUNT_MESSAGES.connected(1));
    expect(t('toast.connectFailed')).toBe(AD_ACCOUNT_MESSAGES.connectFailed);
    expect(t('toast.initiateFailed')).toBe(AD_ACCOUNT_MESSAGES.initiateFailed);
  });
});
