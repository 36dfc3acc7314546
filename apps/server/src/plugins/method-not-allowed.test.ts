import { errorEnvelopeSchema } from '@adpilot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from '../test/test-app.ts';

describe('a path of the API called with a method it does not have', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 405 with the methods it has in Allow, in the envelope, before asking for a token', async () => {
    const session = await registerUser(t.app);
    const id = '00000000-0000-4000-8000-000000000001';
    for (const [method, url, allow] of [
      ['DELETE', '/api/health', 'GET, HEAD'],
      ['PUT', `/api/rules/${id}/run`, 'POST'],
      ['OPTIONS', '/api/auth/login', 'POST'],
      ['POST', `/api/rules/${id}`, 'DELETE, GET, HEAD, PATCH'],
      ['PATCH', '/api/rules', 'GET, HEAD, POST'],
    ] as const) {
      for (const headers of [{}, session.auth]) {
        const answer = await t.app.inject({ method, url, headers });
        expect(answer.statusCode, `${method} ${url}`).toBe(405);
        expect(answer.headers.allow, `${method} ${url}`).toBe(allow);
        expect(errorEnvelopeSchema.parse(answer.json())).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
      }
    }
  });

  it('still answers 404 for a path the API does not have', async () => {
    for (const url of ['/api/nope', '/api/rules/a/b/c/d', '/api/health/more']) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });
});
