import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { LOG_MESSAGES, LOG_STREAM_RETRY_SECONDS, LOG_STREAMS_PER_USER } from '@adpilot/contracts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config/env.ts';
import { createContext } from '../../context.ts';
import { entriesOf, openSse, type SseConnection } from '../../test/sse-client.ts';
import { createTestApp, listenLocally, registerUser, TEST_SECRET, type TestApp } from '../../test/test-app.ts';

const HEARTBEAT_MS = 60;
let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MAX: '0', LOG_STREAM_HEARTBEAT_MS: String(HEARTBEAT_MS) });
  base = await listenLocally(t.app);
});
afterAll(async () => {
  await t.close();
});

type Session = Awaited<ReturnType<typeof registerUser>>;

async function note(session: Session, description: string, origin = base) {
  const response = await fetch(`${origin}/api/logs`, {
    method: 'POST',
    headers: { ...session.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ description }),
  });
  if (response.status !== 201) throw new Error(`note failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: { seq: number; _id: string } }).data;
}

const stream = (session: Session, query = '', headers: Record<string, string> = {}, origin = base) =>
  openSse(`${origin}/api/logs/stream?token=${encodeURIComponent(session.token)}${query}`, headers);

const descriptions = (connection: SseConnection) => entriesOf(connection).map((entry) => entry.description);

describe('GET /api/logs/stream', () => {
  it('answers an event stream, unbuffered, with each entry as JSON under its seq as id', async () => {
    const session = await registerUser(t.app);
    const live = await stream(session);
    try {
      expect(live.status).toBe(200);
      expect(live.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(live.headers.get('x-accel-buffering')).toBe('no');
      expect(live.headers.get('cache-control')).toMatch(/no-cache/);
      const written = await note(session, 'hello <script>x</script>');
      await live.waitFor(() => live.messages.length === 1);
      expect(live.messages[0]!.id).toBe(String(written.seq));
      expect(JSON.parse(live.messages[0]!.data)).toMatchObject({
        _id: written._id,
        description: 'hello <script>x</script>',
        type: 'note',
      });
    } finally {
      live.close();
    }
  });

  it('resumes after a drop from Last-Event-ID (header or query) with no gap and no duplicate', async () => {
    const session = await registerUser(t.app);
    const first = await stream(session);
    for (let i = 1; i <= 3; i += 1) await note(session, `n${i}`);
    await first.waitFor(() => first.messages.length === 3);
    const k = first.messages[1]!.id!; // dropped after the second event: the third was lost on the way
    first.close();
    // Entries keep arriving while the client is away, and while it reconnects.
    for (let i = 4; i <= 6; i += 1) await note(session, `n${i}`);
    const writing = Promise.all([7, 8, 9, 10].map((i) => note(session, `n${i}`)));
    const resumed = await stream(session, '', { 'last-event-id': k });
    await writing;
    await resumed.waitFor(() => resumed.messages.length >= 8);
    // A last entry, written after all of them: once it arrived, any duplicate of an earlier one would have too.
    await note(session, 'last');
    await resumed.waitFor(() => descriptions(resumed).includes('last'));
    try {
      const got = entriesOf(resumed);
      expect(got.map((entry) => entry.seq)).toEqual(Array.from({ length: 9 }, (_, i) => Number(k) + 1 + i));
      expect(new Set(descriptions(resumed).slice(0, 8))).toEqual(
        new Set(['n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9', 'n10']),
      );
      expect(descriptions(resumed)[8]).toBe('last');
      expect(resumed.messages.map((m) => m.id)).toEqual(got.map((entry) => String(entry.seq)));
    } finally {
      resumed.close();
    }
    // The query parameter does the same for a client that reconnects with a fresh token.
    const byQuery = await stream(session, `&lastEventId=${Number(k) + 6}`);
    try {
      await byQuery.waitFor(() => descriptions(byQuery).includes('last'));
      expect(entriesOf(byQuery).map((entry) => entry.seq)).toEqual([Number(k) + 7, Number(k) + 8, Number(k) + 9]);
    } finally {
      byQuery.close();
    }
    expect((await fetch(`${base}/api/logs/stream?token=${session.token}&lastEventId=abc`)).status).toBe(400);
  });

  it('sends heartbeat comments at the configured interval', async () => {
    const session = await registerUser(t.app);
    const live = await stream(session);
    try {
      await live.waitFor(() => live.comments.filter((c) => c === 'heartbeat').length >= 3, 2_000);
      expect(live.messages).toHaveLength(0);
    } finally {
      live.close();
    }
  });

  it('gives a user only their own entries, and applies the level filter', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const streamA = await stream(a);
    const streamB = await stream(b);
    const errorsOfA = await stream(a, '&level=error');
    try {
      await Promise.all([note(a, 'a1'), note(b, 'b1'), note(b, 'b2'), note(a, 'a2')]);
      await fetch(`${base}/api/logs`, {
        method: 'POST',
        headers: { ...a.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'a-error', level: 'error' }),
      });
      await streamA.waitFor(() => streamA.messages.length === 3);
      await streamB.waitFor(() => streamB.messages.length === 2);
      await errorsOfA.waitFor(() => errorsOfA.messages.length === 1);
      // A last entry of each, written after all of them: once it arrived, nothing written before can still come.
      await note(b, 'b-last');
      await fetch(`${base}/api/logs`, {
        method: 'POST',
        headers: { ...a.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'a-last', level: 'error' }),
      });
      await streamA.waitFor(() => descriptions(streamA).includes('a-last'));
      await streamB.waitFor(() => descriptions(streamB).includes('b-last'));
      await errorsOfA.waitFor(() => descriptions(errorsOfA).includes('a-last'));
      expect(new Set(descriptions(streamA))).toEqual(new Set(['a1', 'a2', 'a-error', 'a-last']));
      expect(new Set(descriptions(streamB))).toEqual(new Set(['b1', 'b2', 'b-last']));
      expect(descriptions(errorsOfA)).toEqual(['a-error', 'a-last']);
      // A resume id from another user's log reveals nothing of theirs.
      const probe = await stream(b, '&lastEventId=0');
      await probe.waitFor(() => descriptions(probe).includes('b-last'));
      expect(new Set(descriptions(probe))).toEqual(new Set(['b1', 'b2', 'b-last']));
      probe.close();
    } finally {
      streamA.close();
      streamB.close();
      errorsOfA.close();
    }
  });

  it('holds at most LOG_STREAMS_PER_USER streams per user, counted in parallel, and frees a slot on close', async () => {
    const session = await registerUser(t.app);
    const opened = await Promise.all(Array.from({ length: LOG_STREAMS_PER_USER + 3 }, () => stream(session)));
    const live = opened.filter((connection) => connection.status === 200);
    try {
      expect(live).toHaveLength(LOG_STREAMS_PER_USER);
      const refused = opened.filter((connection) => connection.status !== 200);
      expect(refused.map((connection) => connection.status)).toEqual([429, 429, 429]);
      expect(refused[0]!.headers.get('retry-after')).toBe(String(LOG_STREAM_RETRY_SECONDS));
      const answer = await fetch(`${base}/api/logs/stream?token=${encodeURIComponent(session.token)}`);
      expect(answer.status).toBe(429);
      expect(await answer.json()).toMatchObject({
        success: false,
        code: 'RATE_LIMITED',
        message: LOG_MESSAGES.tooManyStreams,
      });
      // Another user is not affected.
      const other = await stream(await registerUser(t.app));
      expect(other.status).toBe(200);
      other.close();
      // A closed stream gives its slot back (once the server hears of the close), and only one.
      live.pop()!.close();
      let again = await stream(session);
      for (let tries = 0; again.status === 429 && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        again = await stream(session);
      }
      expect(again.status).toBe(200);
      live.push(again);
      expect((await stream(session)).status).toBe(429);
    } finally {
      for (const connection of opened) connection.close();
      for (const connection of live) connection.close();
    }
  });

  it('refuses a missing, forged or expired token before streaming', async () => {
    expect((await fetch(`${base}/api/logs/stream`)).status).toBe(401);
    const forged = await fetch(`${base}/api/logs/stream?token=eyJhbGciOiJIUzI1NiJ9.e30.x`);
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ success: false });
  });

  it('ends when its session ends (a logout), not when the token would have expired', async () => {
    const session = await registerUser(t.app);
    const live = await stream(session);
    expect(live.status).toBe(200);
    await note(session, 'before logout');
    await live.waitFor(() => live.messages.length === 1);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: session.auth,
      payload: { refreshToken: session.refreshToken },
    });
    expect(out.statusCode).toBe(200);
    const signedInElsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: session.user.email, password: session.password },
    });
    const other = signedInElsewhere.json().data as { token: string };
    try {
      await Promise.race([
        live.ended,
        new Promise((_, reject) => setTimeout(() => reject(new Error('the stream outlived its session')), 3_000)),
      ]);
      await note({ ...session, auth: { authorization: `Bearer ${other.token}` } }, 'after logout');
      expect(descriptions(live)).toEqual(['before logout']);
    } finally {
      live.close();
    }
  });

  it('ends when the token expires; the refreshed token resumes from the last id', async () => {
    const session = await registerUser(t.app);
    const started = t.clock.now;
    try {
      // The access token lives 15 minutes: open the stream 1.5 s before it ends.
      t.clock.advance(15 * 60_000 - 1_500);
      const live = await stream(session);
      expect(live.status).toBe(200);
      const before = await note(session, 'before expiry');
      await live.waitFor(() => live.messages.length === 1);
      await live.ended;
      expect(live.isEnded()).toBe(true);
      t.clock.advance(2_000);
      await note(session, 'while away').catch(() => undefined); // the old token no longer writes either
      expect((await stream(session)).status).toBe(401);
      const refreshed = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refreshToken: session.refreshToken },
      });
      const token = refreshed.json().data.token as string;
      const fresh = { ...session, token, auth: { authorization: `Bearer ${token}` } };
      await note(fresh, 'after refresh');
      const again = await stream(fresh, `&lastEventId=${before.seq}`);
      try {
        await again.waitFor(() => again.messages.length === 1);
        expect(descriptions(again)).toEqual(['after refresh']);
      } finally {
        again.close();
      }
    } finally {
      t.clock.now = started;
    }
  });

  it('ends its streams when the server closes, each told when to come back', async () => {
    const ctx = createContext({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST_DIR: '/nonexistent' }),
      database: t.database,
      appSecret: TEST_SECRET,
      log: pino({ level: 'silent' }),
    });
    const closing = await buildApp(ctx, { logger: false });
    const origin = await listenLocally(closing);
    const session = await registerUser(closing);
    const live = await stream(session, '', {}, origin);
    await live.waitFor(() => live.retries.length === 1);
    // A graceful stop: the close waits for no stream, and each ends with a hint spread over a few seconds.
    await closing.close();
    await live.ended;
    expect(live.retries).toHaveLength(2);
    expect(live.retries[1]).toBeGreaterThanOrEqual(1000);
    expect(live.retries[1]).toBeLessThan(5000);
  });

  it('never writes the token to the log', async () => {
    const lines: string[] = [];
    const ctx = createContext({
      config: loadConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'debug',
        WEB_DIST_DIR: '/nonexistent',
        LOG_STREAM_HEARTBEAT_MS: '50',
      }),
      database: t.database,
      appSecret: TEST_SECRET,
      log: pino({ level: 'silent' }),
    });
    const logged = await buildApp(ctx, { logStream: { write: (line: string) => void lines.push(line) } });
    const origin = await listenLocally(logged);
    let signature = '';
    try {
      const session = await registerUser(logged);
      signature = session.token.split('.')[2]!;
      const live = await stream(session, '', {}, origin);
      await live.waitFor(() => live.comments.length > 0);
      live.close();
      await fetch(`${origin}/api/logs/stream?token=${session.token}x`);
      await fetch(`${origin}/api/logs/stream?token=${session.token}&level=nope`);
    } finally {
      await logged.close();
    }
    // Closed: every request it served is logged by now, and nothing more can be.
    expect(lines.join('\n')).toContain('/api/logs/stream?token=REDACTED&level=nope');
    expect(signature).not.toBe('');
    expect(lines.join('\n')).not.toContain(signature);
  });
});

const CHILD = fileURLToPath(new URL('../../test/activity-server.child.ts', import.meta.url));

function startServer(databaseUrl: string): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CHILD, JSON.stringify({ databaseUrl, secret: TEST_SECRET })],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /PORT (\d+)/.exec(out)?.[1];
      if (port) resolve({ child, origin: `http://127.0.0.1:${port}` });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('two API processes on one Postgres', () => {
  it('both deliver an entry written through either (LISTEN/NOTIFY)', async () => {
    const url = t.database.url!;
    const servers = await Promise.all([startServer(url), startServer(url)]);
    const [a, b] = servers.map((server) => server.origin) as [string, string];
    try {
      const session = await registerUser(t.app);
      const onA = await stream(session, '', {}, a);
      const onB = await stream(session, '', {}, b);
      const other = await registerUser(t.app);
      const otherOnB = await stream(other, '', {}, b);
      await note(session, 'via A', a);
      await note(session, 'via B', b);
      await note(other, 'other via A', a);
      await onA.waitFor(() => onA.messages.length === 2);
      await onB.waitFor(() => onB.messages.length === 2);
      await otherOnB.waitFor(() => otherOnB.messages.length === 1);
      expect(descriptions(onA)).toEqual(['via A', 'via B']);
      expect(descriptions(onB)).toEqual(['via A', 'via B']);
      expect(descriptions(otherOnB)).toEqual(['other via A']);
      // A client dropped on A resumes on B.
      const k = onA.messages[0]!.id!;
      onA.close();
      const resumed = await stream(session, '', { 'last-event-id': k }, b);
      await resumed.waitFor(() => resumed.messages.length === 1);
      expect(descriptions(resumed)).toEqual(['via B']);
      for (const connection of [onB, otherOnB, resumed]) connection.close();
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
    }
  }, 60_000);
});
