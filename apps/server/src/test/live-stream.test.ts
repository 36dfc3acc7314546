import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endAllEventStreams } from '../modules/activity/event-stream.ts';
import { openLiveStream, type LiveSession } from './live-stream.ts';
import { createTestApp, listenLocally, registerUser, type TestApp } from './test-app.ts';

// The soak's live clients (bench/soak.ts) must outlive the 15-minute access token as the web app's do.
let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MAX: '0', LOG_STREAM_HEARTBEAT_MS: '100' });
  base = await listenLocally(t.app);
});
afterAll(async () => {
  await t.close();
});

type Session = Awaited<ReturnType<typeof registerUser>>;

async function note(token: string, description: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/logs',
    headers: { authorization: `Bearer ${token}` },
    payload: { description },
  });
  if (response.statusCode !== 201) throw new Error(`note failed: ${response.statusCode} ${response.body}`);
}

/** The session as the soak keeps it: a refresh through the API; `hooks` see each use. */
function liveSession(
  session: Session,
  hooks: { onToken?: (call: number) => void; onRefresh?: (token: string) => Promise<void> } = {},
) {
  const state = { token: session.token, refreshToken: session.refreshToken, refreshes: 0, calls: 0 };
  const live: LiveSession = {
    token() {
      state.calls += 1;
      hooks.onToken?.(state.calls);
      return state.token;
    },
    async refresh() {
      const refreshed = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refreshToken: state.refreshToken },
      });
      const data = refreshed.json().data as { token: string; refreshToken: string };
      Object.assign(state, { token: data.token, refreshToken: data.refreshToken });
      state.refreshes += 1;
      await hooks.onRefresh?.(state.token);
    },
    now: () => t.clock.now,
  };
  return { state, live };
}

const descriptions = (messages: { data: string }[]) =>
  messages.map((message) => (JSON.parse(message.data) as { description: string }).description);

describe('a live stream kept open as the web app keeps it', () => {
  it('reopens with a refreshed token when the token expires, resuming after the last entry', async () => {
    const session = await registerUser(t.app);
    // The access token lives 15 minutes: the stream opens 1.5 s before it ends, and the server ends it then.
    t.clock.advance(15 * 60_000 - 1_500);
    // While the stream is down (the reconnect's turn), an entry is written: the resume must bring it.
    const { state, live } = liveSession(session, { onRefresh: (token) => note(token, 'while away') });
    const stream = await openLiveStream(`${base}/api/logs/stream`, live, { retryMs: 50 });
    try {
      await note(state.token, 'before expiry');
      await stream.waitFor(() => stream.messages.length === 1);
      await stream.waitFor(() => stream.reconnects === 1 && stream.isOpen(), 10_000);
      // One refresh, at the reconnect: the first connection took the token it was given.
      expect(state.refreshes).toBe(1);
      await note(state.token, 'after reconnect');
      await stream.waitFor(() => stream.messages.length === 3);
      expect(descriptions(stream.messages)).toEqual(['before expiry', 'while away', 'after reconnect']);
      expect(stream.failures).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it('tries again after a reopen that fails', async () => {
    const session = await registerUser(t.app);
    // The first reopen fails before it connects (its first look at the token is the second use of the token).
    const { state, live } = liveSession(session, {
      onToken: (call) => {
        if (call === 2) throw new Error('the network is down');
      },
    });
    const stream = await openLiveStream(`${base}/api/logs/stream`, live, { retryMs: 50 });
    try {
      await note(state.token, 'before the stop');
      await stream.waitFor(() => stream.messages.length === 1);
      // A graceful stop ends every stream with a retry hint; the first reopen fails, the next one holds.
      endAllEventStreams();
      await stream.waitFor(() => stream.reconnects === 1 && stream.isOpen(), 15_000);
      expect(stream.failures).toEqual(['the network is down']);
      await note(state.token, 'after the stop');
      await stream.waitFor(() => stream.messages.length === 2);
      expect(descriptions(stream.messages)).toEqual(['before the stop', 'after the stop']);
    } finally {
      stream.close();
    }
  }, 30_000);
});
