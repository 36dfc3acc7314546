import { describe, expect, it } from 'vitest';
import { adAccountsQueryOptions, syncPollInterval } from './ad-accounts.ts';

describe('adAccountsQueryOptions', () => {
  it('keeps the list fresh for 5 minutes', () => {
    expect(adAccountsQueryOptions().staleTime).toBe(5 * 60 * 1000);
  });
});

describe('syncPollInterval', () => {
  it('polls every 2 s while an account is queued or syncing', () => {
    expect(syncPollInterval([{ sync_status: 'idle' }, { sync_status: 'queued' }])).toBe(2_000);
    expect(syncPollInterval([{ sync_status: 'syncing' }])).toBe(2_000);
  });

  it('stops once every account has settled', () => {
    expect(syncPollInterval(undefined)).toBe(false);
    expect(syncPollInterval([])).toBe(false);
    expect(syncPollInterval([{ sync_status: 'idle' }, { sync_status: 'error' }])).toBe(false);
  });
});
