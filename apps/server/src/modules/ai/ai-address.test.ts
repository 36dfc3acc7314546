import { instanceSettings, users } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiFake, type RunningFake } from '../../test/fakes/http-fake.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

/*
 * The AI server's address saved in Settings is held to the webhook address policy when it is used, not only when it
 * is saved (ADR 0097). Every request here goes to the fake on 127.0.0.1: the one host the allow-list names.
 */
const KEY = 'sk-fake-openai-key-0123456789';
const ANALYSIS = JSON.stringify({ items: [{ type: 'warning', title: 'Low CTR', description: 'CTR is 0.5%.' }] });
const CAMPAIGN = { campaignData: { spend: 1000, impressions: 200000, clicks: 1000 } };

describe('the AI server address at use', () => {
  let t: TestApp;
  let openai: RunningFake;
  let admin: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    openai = await startOpenAiFake({ apiKey: KEY, models: ['gpt-4o-mini'], reply: ANALYSIS });
    t = await createTestApp({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1' });
    admin = await registerUser(t.app);
    await t.inspect((db) => db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.user.id)));
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin.auth,
      payload: {
        aiProvider: 'openai',
        openaiApiKey: KEY,
        openaiBaseUrl: `${openai.url}/v1`,
        openaiModel: 'gpt-4o-mini',
      },
    });
    expect(saved.statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await openai.close();
  });

  /** The saved address as if written before the check existed (or by hand): the save's check never saw it. */
  async function saveBehindTheCheck(baseUrl: string) {
    await t.inspect((db) =>
      db.update(instanceSettings).set({ value: baseUrl }).where(eq(instanceSettings.key, 'openaiBaseUrl')),
    );
    await t.ctx.settingsStore.reload();
  }

  const analyse = (session: Awaited<ReturnType<typeof registerUser>>) =>
    t.app.inject({ method: 'POST', url: '/api/ai/analyze-performance', headers: session.auth, payload: CAMPAIGN });

  it('calls an allowed saved address through the pinned connection', async () => {
    const user = await registerUser(t.app);
    const before = openai.requests.length;
    const answer = await analyse(user);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toEqual([{ type: 'warning', title: 'Low CTR', description: 'CTR is 0.5%.' }]);
    expect(openai.requests.slice(before)).toEqual([
      { method: 'POST', path: '/v1/chat/completions', authorization: `Bearer ${KEY}` },
    ]);
  });

  it('refuses a saved local address at the call, with its own code, and sends nothing', async () => {
    const user = await registerUser(t.app);
    const port = new URL(openai.url).port;
    for (const address of [`http://localhost:${port}/v1`, `http://[::1]:${port}/v1`]) {
      await saveBehindTheCheck(address);
      const before = openai.requests.length;
      const refused = await analyse(user);
      expect(refused.statusCode, address).toBe(503);
      expect(refused.json(), address).toMatchObject({ success: false, code: 'AI_ADDRESS_REFUSED' });
      // The assistant's tool loop is another client of the same server: held to the same check.
      const asked = await t.app.inject({
        method: 'POST',
        url: '/api/ai/chat',
        headers: user.auth,
        payload: { message: 'How are my campaigns doing?' },
      });
      expect(asked.json(), address).toMatchObject({ success: false, code: 'AI_ADDRESS_REFUSED' });
      const test = await t.app.inject({
        method: 'POST',
        url: '/api/settings/test-connection/openai',
        headers: admin.auth,
      });
      expect(test.json().data, address).toMatchObject({ success: false, code: 'unreachable' });
      expect(test.json().data.detail, address).toMatch(/private or local network/);
      expect(openai.requests.length, address).toBe(before);
    }
    await saveBehindTheCheck(`${openai.url}/v1`);
    expect((await analyse(user)).statusCode).toBe(200);
  });

  it('tells the connection test the upstream status, not the words of its answer', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin.auth,
      payload: { openaiApiKey: 'sk-wrong' },
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/settings/test-connection/openai',
      headers: admin.auth,
    });
    expect(refused.json().data).toMatchObject({ success: false, code: 'auth_rejected', detail: 'HTTP 401' });
    expect(refused.body).not.toContain('Incorrect API key');
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.auth, payload: { openaiApiKey: KEY } });
  });
});
