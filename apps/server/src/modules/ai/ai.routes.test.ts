import { AI_MESSAGES } from '@adpilot/contracts';
import { featureWaitlist } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxAccounts } from '../../test/connect-account.ts';
import { choosePlan, createSandboxTestApp, registerUser, type SandboxTestApp } from '../../test/test-app.ts';

let t: SandboxTestApp;

beforeAll(async () => {
  t = await createSandboxTestApp();
});
afterAll(() => t.close());

type Session = Awaited<ReturnType<typeof registerUser>>;
const call = (session: Session | null, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/ai${url}`,
    headers: session?.auth ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('access', () => {
  it.each([
    ['POST', '/analyze-performance'],
    ['POST', '/generate-strategy'],
    ['POST', '/generate-ad-copy'],
    ['GET', '/algorithm-hacks/facebook'],
    ['POST', '/chat'],
    ['POST', '/draft-rule'],
    ['GET', '/usage'],
    ['POST', '/waitlist'],
  ] as const)('%s %s needs a signed-in user', async (method, url) => {
    const response = await call(null, method, url, method === 'POST' ? {} : undefined);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
  });
});

describe('POST /api/ai/analyze-performance', () => {
  it.each([
    [{}, AI_MESSAGES.campaignDataRequired],
    [{ campaignData: '' }, AI_MESSAGES.campaignDataRequired],
    [{ campaignData: '   ' }, AI_MESSAGES.campaignDataRequired],
    [{ campaignData: {} }, AI_MESSAGES.campaignDataRequired],
    [{ campaignData: null }, AI_MESSAGES.campaignDataRequired],
    [{ campaignData: '{"spend": 100,' }, AI_MESSAGES.invalidJson],
    [{ campaignData: 'not json at all' }, AI_MESSAGES.invalidJson],
  ])('refuses %j with the spec message', async (payload, message) => {
    const session = await registerUser(t.app);
    const response = await call(session, 'POST', '/analyze-performance', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR', message });
  });

  it('analyses the pasted JSON, as an object or as the text of the box', async () => {
    const session = await registerUser(t.app);
    const data = { spend: 10000, impressions: 200000, reach: 80000, clicks: 1000, conversions: 50, revenue: 50000 };
    for (const campaignData of [data, JSON.stringify(data)]) {
      const response = await call(session, 'POST', '/analyze-performance', { campaignData });
      expect(response.statusCode).toBe(200);
      const items = response.json().data as { type: string; title: string }[];
      expect(items.map((item) => item.title)).toEqual(
        expect.arrayContaining(['Low click-through rate', 'Strong return on ad spend']),
      );
    }
  });
});

describe('POST /api/ai/generate-ad-copy and generate-strategy', () => {
  it('refuses blank product information, bad JSON and an unknown platform', async () => {
    const session = await registerUser(t.app);
    const blank = await call(session, 'POST', '/generate-ad-copy', { productInfo: '', platform: 'facebook' });
    expect(blank.json()).toMatchObject({ message: AI_MESSAGES.productInfoRequired });
    const bad = await call(session, 'POST', '/generate-ad-copy', { productInfo: '{name:', platform: 'facebook' });
    expect(bad.json()).toMatchObject({ message: AI_MESSAGES.invalidJson });
    const platform = await call(session, 'POST', '/generate-ad-copy', {
      productInfo: { name: 'X' },
      platform: 'myspace',
    });
    expect(platform.statusCode).toBe(400);
    expect(platform.json()).toMatchObject({ message: AI_MESSAGES.platformUnknown });
    const strategy = await call(session, 'POST', '/generate-strategy', { productInfo: '' });
    expect(strategy.json()).toMatchObject({ message: AI_MESSAGES.productInfoRequired });
  });

  it('answers a list of strings for instagram too, and a strategy', async () => {
    const session = await registerUser(t.app);
    const copy = await call(session, 'POST', '/generate-ad-copy', {
      productInfo: { name: 'Glow Serum', benefit: 'Hydrates all day', offer: '20% off' },
      platform: 'instagram',
    });
    expect(copy.statusCode).toBe(200);
    expect(copy.json().data).toHaveLength(3);
    expect(copy.json().data.every((line: unknown) => typeof line === 'string')).toBe(true);
    const strategy = await call(session, 'POST', '/generate-strategy', { productInfo: { name: 'Glow Serum' } });
    expect(strategy.json().data.channels.length).toBeGreaterThan(0);
  });
});

describe('GET /api/ai/algorithm-hacks/:platform', () => {
  it('refuses instagram and unknown platforms', async () => {
    const session = await registerUser(t.app);
    for (const platform of ['instagram', 'myspace']) {
      const response = await call(session, 'GET', `/algorithm-hacks/${platform}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: AI_MESSAGES.hackPlatformUnknown });
    }
  });

  it('gives the free plan a subset and shows the rest locked', async () => {
    const session = await registerUser(t.app);
    for (const platform of ['facebook', 'google', 'tiktok', 'linkedin']) {
      const hacks = (await call(session, 'GET', `/algorithm-hacks/${platform}`)).json().data;
      expect(hacks.length).toBeGreaterThanOrEqual(4);
      const open = hacks.filter((hack: { locked: boolean }) => !hack.locked);
      expect(open).toHaveLength(2);
      for (const hack of open) expect(hack.implementation.length).toBeGreaterThan(20);
      for (const hack of hacks.filter((entry: { locked: boolean }) => entry.locked)) {
        expect(hack).toMatchObject({ description: null, implementation: null });
        expect(hack.technique.length).toBeGreaterThan(0);
      }
    }
  });
});

describe('POST /api/ai/chat', () => {
  it('refuses a blank question and answers data.response', async () => {
    const session = await registerUser(t.app);
    const blank = await call(session, 'POST', '/chat', { message: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ message: AI_MESSAGES.messageRequired });
    const answer = await call(session, 'POST', '/chat', { message: 'What is a good ROAS?', context: { any: 1 } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data.response).toContain('conversion value ÷ spend');
  });

  it("uses the caller's own accounts as context, never another user's", async () => {
    const owner = await registerUser(t.app);
    await connectSandboxAccounts(t.app, owner.auth);
    const names = (await t.app.inject({ method: 'GET', url: '/api/ad-accounts', headers: owner.auth }))
      .json()
      .data.map((account: { facebook_account_name: string }) => account.facebook_account_name);
    expect(names.length).toBeGreaterThan(0);

    const mine = (await call(owner, 'POST', '/chat', { message: 'How are my accounts doing?' })).json().data.response;
    for (const name of names) expect(mine).toContain(name);

    const other = await registerUser(t.app);
    const theirs = (await call(other, 'POST', '/chat', { message: 'How are my accounts doing?' })).json().data.response;
    expect(theirs).toContain('You have no ad account connected yet');
    for (const name of names) expect(theirs).not.toContain(name);
  });
});

describe('POST /api/ai/draft-rule', () => {
  it('drafts a switched-off rule that the rules API accepts as it is', async () => {
    const session = await registerUser(t.app);
    const response = await call(session, 'POST', '/draft-rule', {
      prompt: 'pause ads with CPA over 500 baht in the last 7 days',
    });
    expect(response.statusCode).toBe(200);
    const { rule, explanation } = response.json().data;
    expect(rule.isActive).toBe(false);
    expect(explanation).toContain('CPA > 500');
    // Nothing was saved by drafting.
    expect((await t.app.inject({ method: 'GET', url: '/api/rules', headers: session.auth })).json().data).toEqual([]);
    const saved = await t.app.inject({ method: 'POST', url: '/api/rules', headers: session.auth, payload: rule });
    expect(saved.statusCode).toBe(201);
    expect(saved.json().data).toMatchObject({ isActive: false, actions: [{ type: 'pause' }] });
  });

  it("checks at the fastest the user's plan allows, so the draft can be saved switched on", async () => {
    const free = await registerUser(t.app);
    const prompt = 'pause ads with CPA over 500 baht in the last 7 days';
    const drafted = (await call(free, 'POST', '/draft-rule', { prompt })).json().data;
    expect(drafted.rule.schedule).toEqual({ everyMinutes: 60 });
    expect(drafted.explanation).toContain('Checked every 60 minutes.');
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/rules',
      headers: free.auth,
      payload: { ...drafted.rule, isActive: true },
    });
    expect(saved.statusCode).toBe(201);

    const pro = await registerUser(t.app);
    await choosePlan(t.app, pro, 'pro');
    expect((await call(pro, 'POST', '/draft-rule', { prompt })).json().data.rule.schedule).toEqual({
      everyMinutes: 15,
    });
    // A slower schedule the prompt names is kept.
    const hourly = await call(pro, 'POST', '/draft-rule', { prompt: `${prompt}, hourly` });
    expect(hourly.json().data.rule.schedule).toEqual({ everyMinutes: 60 });
  });

  it("uses the plan's fastest when the prompt asks for a faster check, and says so in its language", async () => {
    const free = await registerUser(t.app);
    const english = await call(free, 'POST', '/draft-rule', {
      prompt: 'pause ads with CPA over 500 baht today every 5 minutes',
    });
    expect(english.json().data.rule.schedule).toEqual({ everyMinutes: 60 });
    expect(english.json().data.explanation).toContain(
      'Your plan checks rules at most every 60 minutes, so the rule is checked every 60 minutes instead of every 5 minutes.',
    );
    const thai = await call(free, 'POST', '/draft-rule', { prompt: 'หยุดโฆษณาที่ CPA มากกว่า 500 วันนี้ ทุก 15 นาที' });
    expect(thai.json().data.rule.schedule).toEqual({ everyMinutes: 60 });
    expect(thai.json().data.explanation).toContain('แผนของคุณตรวจกฎได้ถี่สุดทุก 60 นาที');
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/rules',
      headers: free.auth,
      payload: { ...thai.json().data.rule, isActive: true },
    });
    expect(saved.statusCode).toBe(201);
  });

  it('refuses a blank prompt (400) and nonsense (422) with messages', async () => {
    const session = await registerUser(t.app);
    const blank = await call(session, 'POST', '/draft-rule', { prompt: '' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ message: AI_MESSAGES.promptRequired });
    const nonsense = await call(session, 'POST', '/draft-rule', { prompt: 'make me a sandwich' });
    expect(nonsense.statusCode).toBe(422);
    expect(nonsense.json()).toMatchObject({ code: 'AI_DRAFT_NOT_UNDERSTOOD', message: AI_MESSAGES.draftNotUnderstood });
  });
});

describe('GET /api/ai/usage', () => {
  it('names the plan, the count, the limit, the hacks access and the provider', async () => {
    const session = await registerUser(t.app);
    const response = await call(session, 'GET', '/usage');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      plan: 'free',
      hacksAccess: 'limited',
      provider: 'builtin',
      waitlistJoined: false,
    });
  });
});

describe('POST /api/ai/waitlist', () => {
  it('records the interest once, however many presses arrive at once, and only for the caller', async () => {
    const session = await registerUser(t.app);
    const other = await registerUser(t.app);
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(session, 'POST', '/waitlist')));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200));
    const already = answers.map((answer) => answer.json().data.alreadyJoined);
    expect(already.filter((value) => value === false)).toHaveLength(1);
    const rows = await t.inspect((db) =>
      db.select().from(featureWaitlist).where(eq(featureWaitlist.userId, session.user.id)),
    );
    expect(rows).toHaveLength(1);
    expect((await call(session, 'GET', '/usage')).json().data.waitlistJoined).toBe(true);
    expect((await call(other, 'GET', '/usage')).json().data.waitlistJoined).toBe(false);
    const again = await call(session, 'POST', '/waitlist', {});
    expect(again.json().data).toEqual({ joined: true, alreadyJoined: true });
  });
});
