import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SYNC_POLL_LIMIT_MS, useAdAccounts } from '../../../api/ad-accounts.ts';
import { useSyncAdAccount } from '../api/sync-ad-account.ts';
import { buildAdAccount, fakeApi, ok } from '../test/fake-api.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function render() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => ({ list: useAdAccounts(), sync: useSyncAdAccount() }), { wrapper });
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/** A sync that never settles must not keep the page asking every 2 s for ever. */
describe('sync polling bound', () => {
  it('polls a stuck sync every 2 s, stops after the bound, and a new "Sync now" polls again', async () => {
    const stuck = buildAdAccount({ sync_status: 'syncing' });
    const api = fakeApi({
      'GET /ad-accounts': ok([stuck]),
      [`POST /ad-accounts/${stuck.id}/sync`]: ok({ queued: false, account: stuck }),
    });
    const { result } = render();
    await advance(50);
    expect(result.current.list.data).toHaveLength(1);
    const fetches = () => api.callsTo('GET', '/ad-accounts').length;

    await advance(10_000);
    expect(fetches()).toBeGreaterThanOrEqual(5);

    await advance(SYNC_POLL_LIMIT_MS);
    const atBound = fetches();
    await advance(60_000);
    expect(fetches()).toBe(atBound);
    // The page still shows the last state it saw.
    expect(result.current.list.data?.[0]?.sync_status).toBe('syncing');

    await act(() => result.current.sync.mutateAsync(stuck.id));
    await advance(10_000);
    expect(fetches()).toBeGreaterThanOrEqual(atBound + 4);
  });

  it('stops at once when every account settles', async () => {
    let status: 'syncing' | 'idle' = 'syncing';
    const account = buildAdAccount();
    const api = fakeApi({ 'GET /ad-accounts': () => ok([{ ...account, sync_status: status }]) });
    const { result } = render();
    await advance(50);
    expect(result.current.list.data).toHaveLength(1);
    await advance(4_000);
    status = 'idle';
    await advance(2_000);
    const settled = api.callsTo('GET', '/ad-accounts').length;
    expect(result.current.list.data?.[0]?.sync_status).toBe('idle');
    await advance(60_000);
    expect(api.callsTo('GET', '/ad-accounts').length).toBe(settled);
  });
});
