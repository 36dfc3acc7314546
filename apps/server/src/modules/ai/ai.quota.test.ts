import { AI_MESSAGES } from '@adpilot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import type { AiQuota } from './ai-quota.ts';

/**
 * A monthly quota kept in memory with the same contract as billing's: take counts only what it allows. The await
 * between the read and the write is where a check-then-increment quota would let parallel requests through.
 */
function memoryQuota(limit: number): AiQuota & { counts: Map<string, number> } {
  const counts = new Map<string, number>();
  let chain = Promise.resolve();
  return {
    counts,
    take(userId) {
      const result = chain.then(async () => {
        const used = counts.get(userId) ?? 0;
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (limit !== -1 && used >= limit) return { allowed: false, used, limit };
        counts.set(userId, used + 1);
        return { allowed: true, used: used + 1, limit };
      });
      chain = result.then(() => undefined);
      return result;
    },
    usage: async (userId) => ({ plan: 'free', used: counts.get(userId) ?? 0, limit }),
  };
}

let t: TestApp;
const quota = memoryQuota(3);

beforeAll(async () => {
  t = await createTestApp({}, { ai: { quota } });
});
afterAll(async () => {
  await t.close();
});

describe('the monthly AI request quota', () => {
  it('lets exactly the limit through among parallel requests and refuses the rest with 429, uncounted', async () => {
    const session = await registerUser(t.app);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        t.app.inject({
          method: 'POST',
          url: index % 2 ? '/api/ai/chat' : '/api/ai/draft-rule',
          headers: session.auth,
          payload: index % 2 ? { message: 'What is CTR?' } : { prompt: 'pause ads with CPA over 500 today' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    const refused = responses.filter((response) => response.statusCode === 429);
    expect(refused).toHaveLength(5);
    for (const response of refused) {
      expect(response.json()).toMatchObject({
        success: false,
        code: 'AI_QUOTA_EXCEEDED',
        message: AI_MESSAGES.quotaExceeded,
      });
      expect(response.json().message).toContain('Upgrade your plan');
    }
    const usage = (await t.app.inject({ method: 'GET', url: '/api/ai/usage', headers: session.auth })).json().data;
    expect(usage).toMatchObject({ used: 3, limit: 3 });
  });

  it('counts per user, and does not count invalid input or the catalogue', async () => {
    const session = await registerUser(t.app);
    await t.app.inject({ method: 'POST', url: '/api/ai/chat', headers: session.auth, payload: { message: '' } });
    await t.app.inject({ method: 'GET', url: '/api/ai/algorithm-hacks/google', headers: session.auth });
    expect(quota.counts.get(session.user.id) ?? 0).toBe(0);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate-ad-copy',
      headers: session.auth,
      payload: { productInfo: { name: 'Tea' }, platform: 'tiktok' },
    });
    expect(ok.statusCode).toBe(200);
    expect(quota.counts.get(session.user.id)).toBe(1);
  });
});
