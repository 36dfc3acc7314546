import { instanceSettings, users } from '@adpilot/db';
import { SECRET_MASK, SETTINGS_MESSAGES } from '@adpilot/contracts';
import { startSandboxServer, type RunningSandbox } from '@adpilot/meta-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiFake, startStripeFake, type RunningFake } from '../../test/fakes/http-fake.ts';
import { startSmtpFake, type RunningSmtpFake } from '../../test/fakes/smtp-fake.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

const OPENAI_KEY = 'sk-fake-openai-key-0123456789';
const STRIPE_KEY = 'sk_test_fake_stripe_key_0123456789';

/** Makes `session` the instance admin and every other user a member, whatever order the tests ran in. */
async function promote(t: TestApp, userId: string) {
  await t.inspect((db) => db.update(users).set({ role: 'user' }));
  await t.inspect((db) => db.update(users).set({ role: 'admin' }).where(eq(users.id, userId)));
}

describe('settings API', () => {
  let t: TestApp;
  let openai: RunningFake;
  let stripe: RunningFake;
  let smtp: RunningSmtpFake;
  let sandbox: RunningSandbox;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  let member: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    [openai, stripe, smtp, sandbox] = await Promise.all([
      startOpenAiFake({ apiKey: OPENAI_KEY, models: ['gpt-4o-mini', 'llama3.1'] }),
      startStripeFake({ secretKey: STRIPE_KEY }),
      startSmtpFake({ user: 'mailer@example.com', pass: 'smtp-pass-123' }),
      startSandboxServer({}),
    ]);
    // The fakes listen on loopback: allowed as the webhook policy's allow-list allows a receiver on this machine.
    t = await createTestApp({
      STRIPE_API_URL: stripe.url,
      META_GRAPH_URL: sandbox.url,
      WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
    });
    admin = await registerUser(t.app);
    member = await registerUser(t.app);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([openai.close(), stripe.close(), smtp.close(), sandbox.close()]);
  });

  const put = (payload: Record<string, unknown>, session = admin) =>
    t.app.inject({ method: 'PUT', url: '/api/settings', headers: session.auth, payload });
  const test = (service: string) =>
    t.app.inject({ method: 'POST', url: `/api/settings/test-connection/${service}`, headers: admin.auth });

  it('answers 403 to a member and 401 to nobody on every settings route', async () => {
    await promote(t, admin.user.id);
    const routes = [
      { method: 'GET', url: '/api/settings' },
      { method: 'PUT', url: '/api/settings', payload: { smtpHost: 'smtp.example.com' } },
      { method: 'GET', url: '/api/settings/test-connections' },
      ...['openai', 'stripe', 'facebook', 'database', 'mongodb', 'smtp'].map((service) => ({
        method: 'POST',
        url: `/api/settings/test-connection/${service}`,
      })),
    ] as const;
    for (const route of routes) {
      const refused = await t.app.inject({ ...route, headers: member.auth });
      expect(refused.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(refused.json()).toMatchObject({ success: false, code: 'FORBIDDEN' });
      expect((await t.app.inject(route)).statusCode, `${route.method} ${route.url}`).toBe(401);
    }
    // The member's PUT changed nothing.
    const rows = await t.inspect((db) =>
      db.select().from(instanceSettings).where(eq(instanceSettings.key, 'smtpHost')),
    );
    expect(rows).toEqual([]);
  });

  it('keeps a saved secret sealed: masked in answers, not in the table in plain text, kept when not retyped', async () => {
    await promote(t, admin.user.id);
    const saved = await put({ aiProvider: 'openai', openaiApiKey: OPENAI_KEY, openaiBaseUrl: `${openai.url}/v1` });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({
      aiProvider: 'openai',
      openaiApiKey: SECRET_MASK,
      openaiBaseUrl: `${openai.url}/v1`,
      fields: { openaiApiKey: { source: 'saved', secret: true, set: true, readOnly: false } },
      providers: { ai: 'openai' },
    });
    expect(saved.body).not.toContain(OPENAI_KEY);
    const got = await t.app.inject({ method: 'GET', url: '/api/settings', headers: admin.auth });
    expect(got.body).not.toContain(OPENAI_KEY);
    expect(got.json().data.openaiApiKey).toBe(SECRET_MASK);

    const rows = await t.inspect((db) => db.select().from(instanceSettings));
    expect(JSON.stringify(rows)).not.toContain(OPENAI_KEY);
    expect(rows.find((row) => row.key === 'openaiApiKey')).toMatchObject({
      sealed: true,
      value: expect.stringMatching(/^v1\./),
    });

    // The form sends the mask (or nothing) back: the key stays; the provider still reaches the endpoint with it.
    expect((await put({ openaiApiKey: SECRET_MASK, openaiModel: 'llama3.1' })).statusCode).toBe(200);
    expect((await put({ openaiApiKey: '' })).statusCode).toBe(200);
    expect(t.ctx.settingsStore.current().ai).toMatchObject({ apiKey: OPENAI_KEY, model: 'llama3.1' });
    expect((await test('openai')).json().data).toMatchObject({ success: true, status: 'connected' });
  });

  it('requires the OpenAI key when the OpenAI provider is chosen (spec §5)', async () => {
    await promote(t, admin.user.id);
    const refused = await put({ aiProvider: 'openai', openaiApiKey: null });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: [{ field: 'openaiApiKey', message: SETTINGS_MESSAGES.openaiKeyRequired }],
    });
    expect((await put({ aiProvider: 'builtin', openaiApiKey: null })).statusCode).toBe(200);
    expect(t.ctx.settingsStore.current().ai.provider).toBe('builtin');
    expect((await test('openai')).json().data).toMatchObject({ success: false, status: 'not_configured' });
  });

  it('shows the database connection read-only and refuses to change it', async () => {
    await promote(t, admin.user.id);
    const view = (await t.app.inject({ method: 'GET', url: '/api/settings', headers: admin.auth })).json().data;
    expect(view.database).toEqual({ kind: t.database.kind, readOnly: true });
    expect(view.mongodbUri).not.toBe('');
    expect((await put({ mongodbUri: view.mongodbUri })).statusCode).toBe(200);
    const refused = await put({ mongodbUri: 'postgres://elsewhere/db' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([{ field: 'mongodbUri', message: SETTINGS_MESSAGES.databaseReadOnly }]);
  });

  it('tests the OpenAI-compatible endpoint: connected, then disconnected with its reason for a wrong key or model', async () => {
    await promote(t, admin.user.id);
    await put({
      aiProvider: 'openai',
      openaiApiKey: OPENAI_KEY,
      openaiBaseUrl: `${openai.url}/v1`,
      openaiModel: 'gpt-4o-mini',
    });
    const connected = (await test('openai')).json().data;
    expect(connected).toMatchObject({ service: 'openai', success: true, status: 'connected', code: 'ok' });
    expect(openai.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/v1/models',
      authorization: `Bearer ${OPENAI_KEY}`,
    });

    await put({ openaiModel: 'no-such-model' });
    expect((await test('openai')).json().data).toMatchObject({
      success: false,
      status: 'disconnected',
      code: 'model_not_found',
      detail: 'no-such-model',
    });

    await put({ openaiApiKey: 'sk-wrong', openaiModel: 'gpt-4o-mini' });
    const refused = (await test('openai')).json().data;
    // The AI server is one an administrator names: its status is told, not the words of its answer (ADR 0097).
    expect(refused).toMatchObject({
      success: false,
      status: 'disconnected',
      code: 'auth_rejected',
      detail: 'HTTP 401',
    });
    expect(JSON.stringify(refused)).not.toContain('Incorrect API key provided');
  });

  it('tests Stripe with its balance: connected, then disconnected with Stripe’s reason', async () => {
    await promote(t, admin.user.id);
    expect((await test('stripe')).json().data).toMatchObject({ success: false, status: 'not_configured' });
    expect((await put({ stripeSecretKey: STRIPE_KEY })).statusCode).toBe(200);
    expect((await test('stripe')).json().data).toMatchObject({
      success: true,
      status: 'connected',
      detail: 'test mode',
    });
    expect(stripe.requests.at(-1)).toMatchObject({ path: '/v1/balance', authorization: `Bearer ${STRIPE_KEY}` });
    await put({ stripeSecretKey: 'sk_test_wrong' });
    const refused = (await test('stripe')).json().data;
    expect(refused).toMatchObject({ success: false, status: 'disconnected', code: 'auth_rejected' });
    expect(refused.detail).toContain('Invalid API Key provided');
    expect((await put({ stripeSecretKey: 'not-a-key' })).statusCode).toBe(400);
  });

  it('tests the Meta app token against the sandbox: connected, then disconnected for a wrong secret', async () => {
    await promote(t, admin.user.id);
    const app = { facebookAppId: sandbox.sandbox.appId, facebookAppSecret: sandbox.sandbox.appSecret };
    expect((await put(app)).statusCode).toBe(200);
    expect(t.ctx.meta.isSandbox()).toBe(false);
    expect(t.ctx.meta.client().appId).toBe(sandbox.sandbox.appId);
    expect((await test('facebook')).json().data).toMatchObject({ success: true, status: 'connected' });

    await put({ facebookAppSecret: 'wrong-secret' });
    const refused = (await test('facebook')).json().data;
    expect(refused).toMatchObject({ success: false, status: 'disconnected', code: 'auth_rejected' });
    expect(refused.detail).toMatch(/client secret/i);

    expect((await put({ facebookAppSecret: null })).json().errors).toEqual([
      { field: 'facebookAppSecret', message: SETTINGS_MESSAGES.facebookPair },
    ]);
    expect((await put({ facebookAppId: '', facebookAppSecret: null })).statusCode).toBe(200);
    expect(t.ctx.meta.isSandbox()).toBe(true);
  });

  it('tests SMTP with verify(): connected, then disconnected when the server refuses the login', async () => {
    await promote(t, admin.user.id);
    expect((await test('smtp')).json().data).toMatchObject({ status: 'not_configured' });
    const server = {
      smtpHost: '127.0.0.1',
      smtpPort: String(smtp.port),
      smtpUser: 'mailer@example.com',
      smtpPass: 'smtp-pass-123',
    };
    expect((await put(server)).statusCode).toBe(200);
    expect((await test('smtp')).json().data).toMatchObject({ success: true, status: 'connected' });

    await put({ smtpPass: 'wrong' });
    const refused = (await test('smtp')).json().data;
    expect(refused).toMatchObject({ success: false, status: 'disconnected', code: 'auth_rejected' });
    expect(refused.detail).toContain('Invalid username or password');
    expect((await put({ smtpUser: 'not-an-email' })).statusCode).toBe(400);
    await put({ smtpHost: '', smtpPort: '', smtpUser: '', smtpPass: null });
  });

  it('tests the database with SELECT 1 and answers the status map of every service', async () => {
    await promote(t, admin.user.id);
    expect((await test('mongodb')).json().data).toMatchObject({
      service: 'database',
      success: true,
      status: 'connected',
    });
    const map = await t.app.inject({ method: 'GET', url: '/api/settings/test-connections', headers: admin.auth });
    expect(map.statusCode).toBe(200);
    expect(Object.keys(map.json().data).sort()).toEqual(['database', 'facebook', 'openai', 'smtp', 'stripe']);
    expect(map.json().data.database).toBe('connected');
    expect((await test('redis')).statusCode).toBe(400);
  });

  it('refuses an AI server address on a private, loopback or link-local network, as for webhooks', async () => {
    await promote(t, admin.user.id);
    for (const address of [
      'http://169.254.169.254/v1',
      'http://10.0.0.5:8080/v1',
      'http://localhost:11434/v1',
      'http://[::1]:8000/v1',
      'http://[::ffff:127.0.0.2]/v1',
      'http://metadata.google.internal/v1',
    ]) {
      const refused = await put({ aiProvider: 'openai', openaiApiKey: OPENAI_KEY, openaiBaseUrl: address });
      expect(refused.statusCode, address).toBe(400);
      expect(refused.json().errors, address).toEqual([
        { field: 'openaiBaseUrl', message: SETTINGS_MESSAGES.privateAddress },
      ]);
    }
    expect(t.ctx.settingsStore.details().values.openaiBaseUrl).not.toMatch(/169\.254|10\.0\.0\.5|localhost|::1/);
    // The allow-list's host is let through, as a webhook receiver on it is.
    const allowed = await put({ aiProvider: 'openai', openaiApiKey: OPENAI_KEY, openaiBaseUrl: `${openai.url}/v1` });
    expect(allowed.statusCode).toBe(200);
    await put({ aiProvider: 'builtin', openaiApiKey: null, openaiBaseUrl: '' });
  });

  it('does not call a private address saved before the check: the connection test refuses it', async () => {
    await promote(t, admin.user.id);
    await put({ aiProvider: 'openai', openaiApiKey: OPENAI_KEY, openaiBaseUrl: `${openai.url}/v1` });
    // A local name for the fake's own port: were it called, the fake would see it (and nothing leaves the machine).
    await t.inspect((db) =>
      db
        .update(instanceSettings)
        .set({ value: `http://localhost:${new URL(openai.url).port}/v1` })
        .where(eq(instanceSettings.key, 'openaiBaseUrl')),
    );
    await t.ctx.settingsStore.reload();
    const before = openai.requests.length;
    const answer = (await test('openai')).json().data;
    expect(openai.requests.length).toBe(before);
    expect(answer).toMatchObject({ success: false, code: 'unreachable' });
    expect(answer.detail).toMatch(/private or local network/);
    expect(answer.latencyMs).toBeLessThan(1000);
    await put({ aiProvider: 'builtin', openaiApiKey: null, openaiBaseUrl: '' });
  });

  it('reports an unreachable service as disconnected with the reason', async () => {
    await promote(t, admin.user.id);
    const closed = await startStripeFake({ secretKey: 'none' });
    await closed.close();
    await put({ aiProvider: 'openai', openaiApiKey: OPENAI_KEY, openaiBaseUrl: `${closed.url}/v1` });
    expect((await test('openai')).json().data).toMatchObject({
      success: false,
      status: 'disconnected',
      code: 'unreachable',
    });
    await put({ aiProvider: 'builtin', openaiApiKey: null, openaiBaseUrl: '' });
  });
});

describe('settings pinned by the environment', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  beforeAll(async () => {
    t = await createTestApp({ OPENAI_API_KEY: 'sk-from-the-environment-42', SMTP_HOST: 'smtp.env.example' });
    admin = await registerUser(t.app);
    await promote(t, admin.user.id);
  });
  afterAll(() => t.close());

  it('shows env values read-only as from the environment, secrets masked, and refuses to change them', async () => {
    const view = (await t.app.inject({ method: 'GET', url: '/api/settings', headers: admin.auth })).json().data;
    expect(view).toMatchObject({
      aiProvider: 'openai',
      openaiApiKey: SECRET_MASK,
      smtpHost: 'smtp.env.example',
      fields: {
        openaiApiKey: { source: 'environment', readOnly: true },
        smtpHost: { source: 'environment', readOnly: true },
        smtpUser: { source: 'default', readOnly: false },
      },
    });
    expect(JSON.stringify(view)).not.toContain('sk-from-the-environment-42');
    // The form sends every field back unchanged: fine. A change is a clear 400.
    const unchanged = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin.auth,
      payload: { openaiApiKey: SECRET_MASK, smtpHost: 'smtp.env.example', smtpUser: 'ops@example.com' },
    });
    expect(unchanged.statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin.auth,
      payload: { smtpHost: 'smtp.other.example', openaiApiKey: 'sk-new' },
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().errors).toEqual([
      { field: 'openaiApiKey', message: SETTINGS_MESSAGES.fromEnvironment },
      { field: 'smtpHost', message: SETTINGS_MESSAGES.fromEnvironment },
    ]);
    expect(t.ctx.settingsStore.current().ai.apiKey).toBe('sk-from-the-environment-42');
  });
});
