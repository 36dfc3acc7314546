import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, createTestApp, type TestApp } from '../../test/test-app.ts';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is ok when a tenant query works, and degraded (503) when only the server answers', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ status: 'ok', database: { up: true } });

    // The server still answers `select 1`, but a tenant query now fails: health must say so.
    await asOwner(t, sql`revoke select on ad_accounts from adpilot_app`);
    try {
      const degraded = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(degraded.statusCode).toBe(503);
      expect(degraded.json().data).toMatchObject({ status: 'degraded', database: { up: false } });
    } finally {
      await asOwner(t, sql`grant select on ad_accounts to adpilot_app`);
    }
  });
});

describe('GET /api/ready', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.ctx.jobs.stop();
    await t.close();
  });

  const ready = () => t.app.inject({ method: 'GET', url: '/api/ready' });

  it('is 503 naming the failing check until the queue runs and every bundled migration is applied', async () => {
    const idle = await ready();
    expect(idle.statusCode).toBe(503);
    expect(idle.json().data).toEqual({
      ready: false,
      checks: { database: { ok: true }, queue: { ok: false }, migrations: { ok: true, pending: 0 } },
    });

    await t.ctx.jobs.start({ work: false });
    const up = await ready();
    expect(up.statusCode).toBe(200);
    expect(up.json().data).toEqual({
      ready: true,
      checks: { database: { ok: true }, queue: { ok: true }, migrations: { ok: true, pending: 0 } },
    });

    await t.ctx.jobs.stop();
    const stopped = await ready();
    expect(stopped.statusCode).toBe(503);
    expect(stopped.json().data.checks.queue).toEqual({ ok: false });
  });

  it('is 503 while a migration of this build is missing from the database', async () => {
    // A fresh app: a passed migrations check is remembered for the life of the process.
    const fresh = await createTestApp();
    try {
      await fresh.ctx.jobs.start({ work: false });
      const [last] =
        (await asOwner(
          fresh,
          sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)
            returning hash, created_at`,
        ).then((result) => (result as { rows: { hash: string; created_at: string }[] }).rows)) ?? [];
      expect(last).toBeDefined();
      const missing = await fresh.app.inject({ method: 'GET', url: '/api/ready' });
      expect(missing.statusCode).toBe(503);
      expect(missing.json().data.checks).toMatchObject({
        database: { ok: true },
        migrations: { ok: false, pending: 1 },
      });

      await asOwner(
        fresh,
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${last!.hash}, ${last!.created_at})`,
      );
      const back = await fresh.app.inject({ method: 'GET', url: '/api/ready' });
      expect(back.statusCode).toBe(200);
    } finally {
      await fresh.ctx.jobs.stop();
      await fresh.close();
    }
  });
});
