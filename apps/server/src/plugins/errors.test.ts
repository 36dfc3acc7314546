import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Bad input gets a clear 4xx envelope and never a 500. */
describe('malformed requests', () => {
  const cases: [string, InjectOptions, number, string][] = [
    [
      'broken JSON',
      {
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email": ',
      },
      400,
      'BAD_REQUEST',
    ],
    [
      'an empty JSON body',
      { method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '' },
      400,
      'BAD_REQUEST',
    ],
    [
      'wrong types',
      { method: 'POST', url: '/api/auth/login', payload: { email: 42, password: ['x'] } },
      400,
      'VALIDATION_ERROR',
    ],
    [
      'a JSON array',
      { method: 'POST', url: '/api/auth/login', payload: '[1,2]', headers: { 'content-type': 'application/json' } },
      400,
      'VALIDATION_ERROR',
    ],
    [
      'unknown fields',
      { method: 'POST', url: '/api/auth/login', payload: { email: 'a@example.com', password: 'x', isAdmin: true } },
      400,
      'VALIDATION_ERROR',
    ],
    [
      'a 2 MB body',
      {
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
      },
      413,
      'PAYLOAD_TOO_LARGE',
    ],
    [
      'an unsupported content type',
      { method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/xml' }, payload: '<a/>' },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['an unknown route', { method: 'GET', url: '/api/does-not-exist' }, 404, 'NOT_FOUND'],
    [
      'a 10 kB e-mail',
      {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: `${'a'.repeat(10_000)}@example.com`, password: 'x' },
      },
      400,
      'VALIDATION_ERROR',
    ],
  ];

  it.each(cases)('%s → %i %s', async (_name, request, status, code) => {
    const response = await t.app.inject(request);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ success: false, code });
    expect(typeof response.json().message).toBe('string');
  });

  it('names the unknown field', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@example.com', password: 'x', isAdmin: true },
    });
    expect(response.json().errors).toContainEqual({ field: 'isAdmin', message: expect.stringContaining('isAdmin') });
  });
});

describe('health and docs', () => {
  it('reports the database up', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ status: 'ok', database: { up: true } });
  });

  it('serves an OpenAPI document generated from the route schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema.properties).toHaveProperty(
      'email',
    );
  });

  it('sends a strict CSP', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
