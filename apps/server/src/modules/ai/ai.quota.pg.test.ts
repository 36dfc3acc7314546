import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiSettings } from '../../providers/ai/ai-provider-factory.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

/** The AI studio on billing's limits seam (the real monthly counter): the free plan allows 30 AI requests a month. */
const FREE_AI_REQUESTS = 30;

let t: TestApp;
const settings: AiSettings = { provider: 'builtin', model: 'm', timeoutMs: 1000 };

beforeAll(async () => {
  t = await createTestApp({}, { ai: { settings: () => settings } });
});
afterAll(async () => {
  await t.close();
});

type Session = Awaited<ReturnType<typeof registerUser>>;
const usageOf = async (session: Session) =>
  (await t.app.inject({ method: 'GET', url: '/api/ai/usage', headers: session.auth })).json().data;

describe('the monthly AI request quota', () => {
  it('lets exactly the plan limit through among parallel requests and refuses the rest with 429, uncounted', async () => {
    const session = await registerUser(t.app);
    expect(await usageOf(session)).toMatchObject({ plan: 'free', used: 0, limit: FREE_AI_REQUESTS });
    const responses = await Promise.all(
      Array.from({ length: FREE_AI_REQUESTS + 6 }, (_, index) =>
        t.app.inject({
          method: 'POST',
          url: index % 2 ? '/api/ai/chat' : '/api/ai/draft-rule',
          headers: session.auth,
          payload: index % 2 ? { message: 'What is CTR?' } : { prompt: 'pause ads with CPA over 500 today' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(FREE_AI_REQUESTS);
    const refused = responses.filter((response) => response.statusCode === 429);
    expect(refused).toHaveLength(6);
    for (const response of refused) {
      expect(response.json()).toMatchObject({ success: false, code: 'AI_REQUEST_LIMIT_REACHED' });
      expect(response.json().message).toMatch(/Upgrade your plan/);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The refused six were not counted: the card and the subscription page both say 30 of 30.
    expect(await usageOf(session)).toMatchObject({ used: FREE_AI_REQUESTS, limit: FREE_AI_REQUESTS });
    const current = await t.app.inject({ method: 'GET', url: '/api/subscription/current', headers: session.auth });
    expect(current.json().data).toMatchObject({ aiRequestsUsed: FREE_AI_REQUESTS, aiRequestsLimit: FREE_AI_REQUESTS });
    // Another user's month is their own.
    expect(await usageOf(await registerUser(t.app))).toMatchObject({ used: 0 });
  });

  it('does not count invalid input or the catalogue, and gives back a request the provider failed', async () => {
    const session = await registerUser(t.app);
    await t.app.inject({ method: 'POST', url: '/api/ai/chat', headers: session.auth, payload: { message: '' } });
    await t.app.inject({ method: 'GET', url: '/api/ai/algorithm-hacks/google', headers: session.auth });
    expect((await usageOf(session)).used).toBe(0);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate-ad-copy',
      headers: session.auth,
      payload: { productInfo: { name: 'Tea' }, platform: 'tiktok' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await usageOf(session)).used).toBe(1);

    // A nonsense draft is an answer (422) and stays counted; an unreachable model is no answer and is given back.
    const nonsense = await t.app.inject({
      method: 'POST',
      url: '/api/ai/draft-rule',
      headers: session.auth,
      payload: { prompt: 'make me a sandwich' },
    });
    expect(nonsense.statusCode).toBe(422);
    expect((await usageOf(session)).used).toBe(2);
    Object.assign(settings, { provider: 'openai', apiKey: 'sk-x', baseUrl: 'http://127.0.0.1:9/v1' });
    try {
      const failed = await t.app.inject({
        method: 'POST',
        url: '/api/ai/chat',
        headers: session.auth,
        payload: { message: 'What is CTR?' },
      });
      expect(failed.statusCode).toBe(503);
      expect(failed.json()).toMatchObject({ code: 'AI_UNAVAILABLE' });
    } finally {
      Object.assign(settings, { provider: 'builtin', apiKey: undefined, baseUrl: undefined });
    }
    expect((await usageOf(session)).used).toBe(2);
  });

  it('counts each answered question once among parallel ones, and none the assistant could not answer', async () => {
    const session = await registerUser(t.app);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        t.app.inject({
          method: 'POST',
          url: '/api/ai/chat',
          headers: session.auth,
          payload: { message: index % 2 ? 'What is CTR?' : 'Please book me a flight to Paris' },
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(12).fill(200));
    expect(responses.map((response) => response.json().data.counted)).toEqual(
      Array.from({ length: 12 }, (_, index) => index % 2 === 1),
    );
    expect((await usageOf(session)).used).toBe(6);
    const listed = await t.app.inject({ method: 'GET', url: '/api/ai/conversations', headers: session.auth });
    expect(listed.json().data).toHaveLength(12);
  });
});
