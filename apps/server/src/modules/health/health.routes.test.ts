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
