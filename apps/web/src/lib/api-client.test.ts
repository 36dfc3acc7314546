import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, setUnauthorizedHandler } from './api-client.ts';
import { clearStoredSession, readToken, storeTokens } from './session-storage.ts';

/** A fetch that answers 401 once `release` is called, so the test decides what happens while the request is out. */
function heldUnauthorized() {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const fetchMock = vi.fn(async () => {
    await released;
    return new Response(JSON.stringify({ success: false, code: 'UNAUTHORIZED', message: 'Unauthorized' }), {
      status: 401,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { release, fetchMock };
}

afterEach(() => {
  vi.unstubAllGlobals();
  clearStoredSession();
  setUnauthorizedHandler(() => undefined);
});

describe('a 401', () => {
  it('ends the session when the session it was sent with is still the one stored', async () => {
    storeTokens('access', 'refresh');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    const { release } = heldUnauthorized();
    const request = apiRequest('GET', '/ad-accounts');
    release();
    await expect(request).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(readToken()).toBeNull();
  });

  it('is no news for a session that ended here while the request was out (a logout)', async () => {
    storeTokens('access', 'refresh');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    const { release, fetchMock } = heldUnauthorized();
    const request = apiRequest('GET', '/ad-accounts');
    clearStoredSession(); // the logout ends the session before the dashboard's request comes back
    release();
    await expect(request).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).not.toHaveBeenCalled();
    // No refresh was tried for a session that is gone: the one call is the request itself.
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
