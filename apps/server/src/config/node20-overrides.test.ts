import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * The root package.json's `overrides` (ADR 0181) put an older major under two of fastify's own packages, so that
 * `npm install` on Node 20 does not warn about them: cookie 1 under light-my-request (fastify's `inject`) and
 * content-disposition 2 under @fastify/static. Each is used there by one function, and AdPilot calls neither path
 * anywhere else, so these tests are what exercises them: `inject` with `cookies` (light-my-request's
 * `stringifySetCookie({ name, value })`) and `reply.download` (@fastify/static's `create(filename)`). The answers
 * are the ones the newer majors give for the same inputs (compared when the overrides were made); cookie 1 only
 * percent-encodes more of a value (`/`, `=`), which a server decodes the same.
 */

const root = mkdtempSync(join(tmpdir(), 'adpilot-overrides-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the dependencies pinned for Node 20', () => {
  it("inject sends the cookies it is given as one Cookie header (light-my-request's cookie)", async () => {
    const app = Fastify();
    app.get('/echo', (request) => ({ cookie: request.headers.cookie ?? null }));
    const response = await app.inject({
      method: 'GET',
      url: '/echo',
      cookies: { session: 'abc.DEF-123_x', other: 'two' },
    });
    expect(response.json()).toEqual({ cookie: 'session=abc.DEF-123_x; other=two' });
    await app.close();
  });

  it("reply.download names the file in Content-Disposition (@fastify/static's content-disposition)", async () => {
    writeFileSync(join(root, 'report.csv'), 'a,b\n1,2\n');
    const app = Fastify();
    await app.register(fastifyStatic, { root, serve: false });
    app.get('/plain', (_request, reply) => reply.download('report.csv'));
    app.get('/named', (_request, reply) => reply.download('report.csv', 'ยอดขาย 2026.csv'));
    const plain = await app.inject({ method: 'GET', url: '/plain' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-disposition']).toBe('attachment; filename=report.csv');
    expect(plain.body).toBe('a,b\n1,2\n');
    const named = await app.inject({ method: 'GET', url: '/named' });
    expect(named.headers['content-disposition']).toBe(
      `attachment; filename="?????? 2026.csv"; filename*=UTF-8''${encodeURIComponent('ยอดขาย 2026.csv')}`,
    );
    await app.close();
  });
});
