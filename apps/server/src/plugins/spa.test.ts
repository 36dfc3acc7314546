import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

describe('serving the built SPA', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'adpilot-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>AdPilot</title><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    mkdirSync(join(dist, 'routes'));
    writeFileSync(join(dist, 'routes', 'login.html'), '<!doctype html><link rel="modulepreload" href="/login.js">');
    t = await createTestApp({ WEB_DIST_DIR: dist });
  });
  afterAll(() => t.close());

  it.each(['/', '/rules', '/ad-accounts?code=x&state=y', '/reset-password?token=abc'])(
    'answers %s with index.html, never cached',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    },
  );

  it.each(['/login', '/login?next=%2Frules'])(
    'answers %s with the copy of index.html that preloads its page, never cached',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('href="/login.js"');
    },
  );

  it('answers a route without its own copy, or one only starting like it, with index.html', async () => {
    for (const url of ['/loginx', '/rules/login']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.body, url).toContain('<div id="root">');
    }
  });

  it('serves hashed assets with a year of caching, and 404s a missing file', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing-1.js' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/favicon-missing.ico' })).statusCode).toBe(404);
  });

  it.each(['/assets/..%2f..%2fetc%2fpasswd', '/assets/%2e%2e%2f%2e%2e%2fpackage.json'])(
    'refuses the traversal %s with a 403 envelope',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ success: false, message: 'Forbidden', code: 'FORBIDDEN' });
    },
  );

  it('keeps JSON 404s for unknown API routes', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});
