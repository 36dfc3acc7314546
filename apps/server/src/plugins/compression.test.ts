import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse } from '../test/sse-client.ts';
import { createTestApp, listenLocally, registerUser, type TestApp } from '../test/test-app.ts';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.ts';

/** A built SPA in miniature: files with the brotli and gzip copies the build writes beside them. */
function distFixture(): { dir: string; script: string; page: string } {
  const dir = mkdtempSync(join(tmpdir(), 'adpilot-dist-'));
  mkdirSync(join(dir, 'assets'));
  const page = `<!doctype html><title>AdPilot</title><div id="root"></div>${'<!-- padding -->'.repeat(40)}`;
  const script = `export const words = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `word ${i}`))};`;
  const files = { 'index.html': page, 'assets/app-abc123.js': script };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(text));
  }
  // A file the build left uncompressed (an image): sent as it is whatever the client accepts.
  writeFileSync(join(dir, 'assets', 'logo-abc123.png'), Buffer.alloc(2048, 7));
  return { dir, script, page };
}

const decoders: Record<string, (body: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  identity: (body) => body,
};

describe('compressed answers', () => {
  let t: TestApp;
  let fixture: ReturnType<typeof distFixture>;
  let base: string;
  beforeAll(async () => {
    fixture = distFixture();
    t = await createTestApp({ WEB_DIST_DIR: fixture.dir, RATE_LIMIT_MAX: '0', LOG_STREAM_HEARTBEAT_MS: '60000' });
    base = await listenLocally(t.app);
  });
  afterAll(() => t.close());

  describe.each([
    { accept: 'br, gzip', encoding: 'br' },
    { accept: 'gzip, deflate', encoding: 'gzip' },
    { accept: undefined, encoding: 'identity' },
    { accept: 'identity', encoding: 'identity' },
  ])('with Accept-Encoding $accept', ({ accept, encoding }) => {
    const headers = accept === undefined ? {} : { 'accept-encoding': accept };

    it(`sends a hashed asset as ${encoding}, cached for a year, varying on the encoding`, async () => {
      const response = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'] ?? 'identity').toBe(encoding);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers['vary']).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decoders[encoding]!(response.rawPayload).toString()).toBe(fixture.script);
    });

    it(`sends the history fallback's index.html as ${encoding}, never cached`, async () => {
      const response = await t.app.inject({ method: 'GET', url: '/dashboard', headers });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'] ?? 'identity').toBe(encoding);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['vary']).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(decoders[encoding]!(response.rawPayload).toString()).toBe(fixture.page);
    });
  });

  it('sends a file the build did not compress as it is', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/assets/logo-abc123.png',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.length).toBe(2048);
  });

  it('compresses an API answer over the threshold and leaves a small one as it is', async () => {
    const session = await registerUser(t.app);
    const headers = { ...session.auth, 'accept-encoding': 'br, gzip' };
    const note = (description: string) =>
      t.app.inject({ method: 'POST', url: '/api/logs', headers, payload: { description } });
    expect((await note('x'.repeat(400))).statusCode).toBe(201);
    expect((await note('y'.repeat(400))).statusCode).toBe(201);
    expect((await note('z'.repeat(400))).statusCode).toBe(201);

    const large = await t.app.inject({ method: 'GET', url: '/api/logs', headers });
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-encoding']).toBe('br');
    expect(large.headers['vary']).toMatch(/accept-encoding/i);
    const body = JSON.parse(brotliDecompressSync(large.rawPayload).toString()) as { success: boolean };
    expect(body.success).toBe(true);
    expect(brotliDecompressSync(large.rawPayload).length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);

    const small = await t.app.inject({ method: 'GET', url: '/api/health', headers });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ success: true });
  });

  it('keeps the error envelope for a client that accepts compression', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope', headers: { 'accept-encoding': 'gzip' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('never compresses the live log stream: each event arrives on its own, before the next is written', async () => {
    const session = await registerUser(t.app);
    const live = await openSse(`${base}/api/logs/stream?token=${encodeURIComponent(session.token)}`, {
      'accept-encoding': 'br, gzip',
    });
    try {
      expect(live.status).toBe(200);
      expect(live.headers.get('content-encoding')).toBeNull();
      expect(live.headers.get('content-type')).toMatch(/^text\/event-stream/);
      for (const [index, description] of ['first', 'second', 'third'].entries()) {
        const written = await fetch(`${base}/api/logs`, {
          method: 'POST',
          headers: { ...session.auth, 'content-type': 'application/json', 'accept-encoding': 'br, gzip' },
          body: JSON.stringify({ description }),
        });
        expect(written.status).toBe(201);
        // The heartbeat is a minute away: only a flushed event can arrive in time.
        await live.waitFor(() => live.messages.length === index + 1, 3_000);
        expect(JSON.parse(live.messages[index]!.data)).toMatchObject({ description });
      }
    } finally {
      live.close();
    }
  });
});
