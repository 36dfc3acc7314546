import { refreshTokens, users } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.ts';
import { createContext, type AppContext } from '../../context.ts';
import { createTestApp, registerUser, TEST_SECRET, type TestApp } from '../../test/test-app.ts';
import { AuthRepository } from './auth.repository.ts';
import { SessionCache, type LiveSession } from './session-cache.ts';

const HOUR = 3_600_000;

describe('SessionCache', () => {
  const clock = { now: new Date('2026-11-22T12:00:00Z') };
  const live = (role: 'admin' | 'user' = 'user'): LiveSession => ({
    role,
    expiresAt: new Date(clock.now.getTime() + 24 * HOUR),
  });
  const listeningCache = (options: { ttlMs?: number; maxEntries?: number } = {}) => {
    const cache = new SessionCache({ now: () => clock.now, ...options });
    cache.listener.onReset?.(true);
    return cache;
  };

  it('asks the database once, then answers from memory', async () => {
    const cache = listeningCache();
    const load = vi.fn(async () => live('admin'));
    expect(await cache.role('s1', 'u1', load)).toBe('admin');
    expect(await cache.role('s1', 'u1', load)).toBe('admin');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps nothing while it does not hear the database, and drops everything when listening breaks', async () => {
    const cache = new SessionCache({ now: () => clock.now });
    const load = vi.fn(async () => live());
    await cache.role('s1', 'u1', load);
    await cache.role('s1', 'u1', load);
    expect(load).toHaveBeenCalledTimes(2);

    cache.listener.onReset?.(true);
    await cache.role('s1', 'u1', load);
    expect(cache.size).toBe(1);
    cache.listener.onReset?.(false);
    expect(cache.size).toBe(0);
    await cache.role('s1', 'u1', load);
    expect(cache.size).toBe(0);
  });

  it("forgets a user's sessions when the database names the user, and only that user's", async () => {
    const cache = listeningCache();
    await cache.role('a1', 'alice', async () => live());
    await cache.role('a2', 'alice', async () => live());
    await cache.role('b1', 'bob', async () => live());
    cache.listener.onMessage('alice');
    const load = vi.fn(async () => null);
    expect(await cache.role('a1', 'alice', load)).toBeNull();
    expect(await cache.role('a2', 'alice', load)).toBeNull();
    expect(await cache.role('b1', 'bob', load)).toBe('user');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not keep an answer read while an eviction arrived', async () => {
    const cache = listeningCache();
    let finish!: (value: LiveSession) => void;
    const pending = cache.role('s1', 'u1', () => new Promise<LiveSession>((resolve) => (finish = resolve)));
    cache.listener.onMessage('u1');
    finish(live());
    expect(await pending).toBe('user');
    expect(cache.size).toBe(0);
  });

  it('refuses a session id presented with another user id', async () => {
    const cache = listeningCache();
    await cache.role('s1', 'u1', async () => live());
    expect(await cache.role('s1', 'u2', async () => null)).toBeNull();
  });

  it('asks again after its time to live and never past the refresh token expiry', async () => {
    const cache = listeningCache({ ttlMs: 60_000 });
    const load = vi.fn(async () => live());
    await cache.role('s1', 'u1', load);
    clock.now = new Date(clock.now.getTime() + 61_000);
    await cache.role('s1', 'u1', load);
    expect(load).toHaveBeenCalledTimes(2);

    const shortLived = vi.fn(async () => ({ role: 'user' as const, expiresAt: new Date(clock.now.getTime() + 1000) }));
    await cache.role('s2', 'u1', shortLived);
    clock.now = new Date(clock.now.getTime() + 1001);
    await cache.role('s2', 'u1', shortLived);
    expect(shortLived).toHaveBeenCalledTimes(2);
  });

  it('holds at most maxEntries sessions', async () => {
    const cache = listeningCache({ maxEntries: 3 });
    for (let i = 0; i < 10; i += 1) await cache.role(`s${i}`, `u${i}`, async () => live());
    expect(cache.size).toBe(3);
  });
});

/** A second API process on the same database: its own context, its own session cache. */
async function secondProcess(t: TestApp): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const ctx = createContext({
    config: t.ctx.config,
    database: t.database,
    appSecret: TEST_SECRET,
    log: pino({ level: 'silent' }),
    now: () => t.clock.now,
    mailer: t.mailer,
  });
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  return { app, ctx };
}

describe('session checks across processes', () => {
  let t: TestApp;
  let other: { app: FastifyInstance; ctx: AppContext };
  beforeAll(async () => {
    t = await createTestApp();
    other = await secondProcess(t);
  });
  afterAll(async () => {
    await other.app.close();
    await t.close();
  });

  const me = (app: FastifyInstance, auth: Record<string, string>) =>
    app.inject({ method: 'GET', url: '/api/auth/me', headers: auth }).then((response) => response.statusCode);

  it('reads a session from the database once per process, then from memory', async () => {
    const spy = vi.spyOn(AuthRepository.prototype, 'liveSession');
    try {
      const user = await registerUser(t.app);
      for (let i = 0; i < 5; i += 1) expect(await me(t.app, user.auth)).toBe(200);
      for (let i = 0; i < 5; i += 1) expect(await me(other.app, user.auth)).toBe(200);
      expect(spy.mock.calls.filter(([, userId]) => userId === user.user.id)).toHaveLength(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('ends a session in every process when it is signed out in one', async () => {
    const user = await registerUser(t.app);
    expect(await me(t.app, user.auth)).toBe(200);
    expect(await me(other.app, user.auth)).toBe(200);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: user.auth,
      payload: { refreshToken: user.refreshToken },
    });
    expect(logout.statusCode).toBe(200);
    // The process that signed out forgets at once; the other once the database's notification arrived.
    expect(await me(t.app, user.auth)).toBe(401);
    await other.ctx.modules.auth.service.sessionsSettled();
    expect(await me(other.app, user.auth)).toBe(401);
  });

  it('applies a role changed by plain SQL, behind the API, in every process', async () => {
    await registerUser(t.app);
    const member = await registerUser(t.app);
    const outbox = (app: FastifyInstance) =>
      app
        .inject({ method: 'GET', url: '/api/admin/outbox', headers: member.auth })
        .then((response) => response.statusCode);
    expect(await outbox(t.app)).toBe(403);
    expect(await outbox(other.app)).toBe(403);
    await t.inspect((db) => db.update(users).set({ role: 'admin' }).where(eq(users.id, member.user.id)));
    await Promise.all([t.modules.auth.service.sessionsSettled(), other.ctx.modules.auth.service.sessionsSettled()]);
    expect(await outbox(t.app)).toBe(200);
    expect(await outbox(other.app)).toBe(200);
  });

  it('ends every session of a user whose refresh tokens were revoked by plain SQL', async () => {
    const user = await registerUser(t.app);
    expect(await me(other.app, user.auth)).toBe(200);
    await t.inspect((db) =>
      db.update(refreshTokens).set({ revokedAt: new Date() }).where(eq(refreshTokens.userId, user.user.id)),
    );
    await other.ctx.modules.auth.service.sessionsSettled();
    expect(await me(other.app, user.auth)).toBe(401);
  });
});
