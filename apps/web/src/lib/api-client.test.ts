import { afterEach, describe, expect, it, vi } from 'vitest';
import { SUCCESSOR_WAIT_MS, apiRequest, setUnauthorizedHandler } from './api-client.ts';
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

describe('a refresh that lost a race with another tab', () => {
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  /** The API as the server answers a tab whose refresh token another tab rotated a moment ago. */
  function serverAfterRotation(onRotated: () => void) {
    const calls: { path: string; auth: string | null; body: unknown }[] = [];
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      const auth = new Headers(init?.headers).get('authorization');
      calls.push({ path, auth, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (path === '/api/auth/refresh') {
        onRotated();
        return json(409, { success: false, code: 'REFRESH_TOKEN_ROTATED', message: 'rotated' });
      }
      if (path === '/api/auth/logout') return json(200, { success: true, data: null });
      if (auth === 'Bearer fresh') return json(200, { success: true, data: [] });
      return json(401, { success: false, code: 'UNAUTHORIZED', message: 'Unauthorized' });
    });
    vi.stubGlobal('fetch', fetchMock);
    return calls;
  }

  it("uses the other tab's tokens once they reach this tab's storage, and stays signed in", async () => {
    storeTokens('expired', 'used');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    // The other tab's write lands a little after the server's answer.
    const calls = serverAfterRotation(() => setTimeout(() => storeTokens('fresh', 'successor'), 120));
    await expect(apiRequest('GET', '/ad-accounts')).resolves.toEqual([]);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(readToken()).toBe('fresh');
    expect(calls.map((call) => call.path)).toEqual(['/api/ad-accounts', '/api/auth/refresh', '/api/ad-accounts']);
    expect(calls[2]?.auth).toBe('Bearer fresh');
  });

  it('ends the session when no tab of this browser rotated the token: someone else holds it', async () => {
    vi.useFakeTimers();
    try {
      storeTokens('expired', 'used');
      const onUnauthorized = vi.fn();
      setUnauthorizedHandler(onUnauthorized);
      const calls = serverAfterRotation(() => undefined);
      const request = apiRequest('GET', '/ad-accounts');
      const settled = expect(request).rejects.toMatchObject({ status: 401 });
      await vi.advanceTimersByTimeAsync(SUCCESSOR_WAIT_MS);
      await settled;
      // The family is revoked by the logout, as a late replay would have done on the server.
      expect(calls.map((call) => call.path)).toEqual(['/api/ad-accounts', '/api/auth/refresh', '/api/auth/logout']);
      expect(calls[2]?.body).toEqual({ refreshToken: 'used' });
      expect(onUnauthorized).toHaveBeenCalledTimes(1);
      expect(readToken()).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
