import { addDays, currencyOffset, formatMoney, localDate } from '@adpilot/contracts';
import { adEntities, insightsDaily, type AdAccountRow } from '@adpilot/db';
import { and, eq, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedUser, thbAccount } from '../../../test/rules-sandbox.ts';
import { createSandboxTestApp, registerUser, type SandboxTestApp } from '../../../test/test-app.ts';

let t: SandboxTestApp;
let session: Awaited<ReturnType<typeof registerUser>>;
let account: AdAccountRow;

beforeAll(async () => {
  t = await createSandboxTestApp();
  const connected = await connectedUser(t);
  session = connected.session;
  account = thbAccount(connected.accounts);
}, 180_000);
afterAll(() => t.close());

const chat = (payload: Record<string, unknown>, auth = session.auth, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/ai/chat', headers: { ...auth, ...headers }, payload });
const usage = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/ai/usage', headers: session.auth })).json().data.used as number;

/**
 * The wasted spend, computed straight from the sandbox's model (not our mirror): each campaign's spend and
 * purchases over the days, the ones with spend and no purchases ranked by spend; if none, those whose CPA is above
 * twice the account's.
 */
async function sandboxWasted(first: string, last: string) {
  const world = t.sandbox.sandbox.world;
  const now = t.sandbox.sandbox.now();
  const offset = currencyOffset(account.currency);
  const campaigns = await t.inspect((db) =>
    db
      .select()
      .from(adEntities)
      .where(and(eq(adEntities.adAccountId, account.id), eq(adEntities.level, 'campaign'))),
  );
  const totals = campaigns.map((campaign) => {
    const sandboxCampaign = world.campaigns.get(campaign.externalId)!;
    let spend = 0;
    let results = 0;
    for (const adSet of world.adSetsOf(sandboxCampaign))
      for (const ad of world.adsOf(adSet))
        for (let date = first; date <= last; date = addDays(date, 1)) {
          const day = t.sandbox.sandbox.delivery.adDay(ad, date, now);
          if (!day) continue;
          spend += day.spend / offset;
          results += day.purchases;
        }
    return { id: campaign.id, name: campaign.name, spend, results };
  });
  const spent = totals.filter((c) => c.spend > 0);
  const zero = spent.filter((c) => c.results === 0).sort((a, b) => b.spend - a.spend);
  if (zero.length > 0) return zero;
  const cpa = spent.reduce((s, c) => s + c.spend, 0) / spent.reduce((s, c) => s + c.results, 0);
  return spent.filter((c) => c.spend / c.results > 2 * cpa).sort((a, b) => b.spend - a.spend);
}

/** The analyst's last day: the last whole local day (yesterday), or the mirror's last if earlier. */
async function lastDay(): Promise<string> {
  const yesterday = addDays(localDate(account.timezone, t.clock.now.getTime()), -1);
  const [row] = await t.inspect((db) =>
    db
      .select({ last: max(insightsDaily.date) })
      .from(insightsDaily)
      .where(and(eq(insightsDaily.adAccountId, account.id), eq(insightsDaily.level, 'campaign'))),
  );
  return row!.last! < yesterday ? row!.last! : yesterday;
}

describe('the built-in analyst on the sandbox', () => {
  it.each([
    ['en', 'Which of my campaigns is wasting the most money?'],
    ['th', 'แคมเปญไหนเสียเงินเปล่ามากที่สุด'],
  ] as const)(
    'names the campaign the sandbox ranks first for wasted spend, with its spend (%s)',
    async (language, message) => {
      const before = await usage();
      const response = await chat({ message });
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(data.language).toBe(language);
      expect(data.counted).toBe(true);
      const last = await lastDay();
      const wasted = await sandboxWasted(addDays(last, -6), last);
      expect(wasted.length).toBeGreaterThan(0);
      const first = wasted[0]!;
      const spend = formatMoney(first.spend, account.currency, language);
      const block = (data.response as string).split('\n\n').find((part) => part.includes(`/campaigns/${first.id}`))!;
      expect(block).toBeDefined();
      // The first entity listed in the account's block is the sandbox's first, with its spend.
      const firstLine = block.split('\n').find((line) => line.startsWith('1. '))!;
      expect(firstLine).toContain(`/campaigns/${first.id}`);
      expect(firstLine).toContain(spend);
      expect(data.citations).toContainEqual(
        expect.objectContaining({
          entityId: first.id,
          name: first.name,
          href: `/campaigns/${first.id}`,
          figure: spend,
        }),
      );
      if (language === 'th') expect(block).not.toMatch(/\b(spent|results|Together)\b/);
      expect(await usage()).toBe(before + 1);
    },
  );

  it('answers best and worst performers, changes with a likely cause, pacing and the rules, in both languages', async () => {
    for (const message of [
      'What are my best campaigns?',
      'What are my worst campaigns?',
      'Why did CPA rise yesterday?',
      'How is my budget pacing this month?',
      'What did my rules do?',
      'แคมเปญไหนดีที่สุด',
      'ทำไมต้นทุนต่อผลลัพธ์เมื่อวานสูงขึ้น',
    ]) {
      const response = await chat({ message });
      expect(response.statusCode, message).toBe(200);
      const data = response.json().data;
      expect(data.counted, message).toBe(true);
      expect(data.response.length, message).toBeGreaterThan(20);
    }
    const change = (await chat({ message: 'What changed compared with the previous week?' })).json().data;
    expect(change.response).toMatch(/→/);
    expect(change.citations.length).toBeGreaterThan(0);
    for (const citation of change.citations) expect(citation.href).toMatch(/^\/campaigns\/[0-9a-f-]{36}$/);
  });

  it('keeps the conversation: a follow-up asks the same question over the days it names, and it is listed', async () => {
    const first = (await chat({ message: 'Which campaigns are wasting money?' })).json().data;
    const follow = await chat({ message: 'And over the last 30 days?', conversationId: first.conversationId });
    expect(follow.statusCode).toBe(200);
    expect(follow.json().data.conversationId).toBe(first.conversationId);
    expect(follow.json().data.response).toMatch(/30 days/);
    const list = await t.app.inject({ method: 'GET', url: '/api/ai/conversations', headers: session.auth });
    expect(list.json().data.map((c: { id: string }) => c.id)).toContain(first.conversationId);
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/ai/conversations/${first.conversationId}`,
      headers: session.auth,
    });
    const messages = one.json().data.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(messages[2]!.content).toBe('And over the last 30 days?');
  });

  it('takes parallel follow-ups of one conversation in turns, each question next to its answer', async () => {
    const first = (await chat({ message: 'Which campaigns are wasting money?' })).json().data;
    const followUps = ['And yesterday?', 'And over 14 days?', 'And over 30 days?', 'And this month?'];
    const replies = await Promise.all(
      followUps.map((message) => chat({ message, conversationId: first.conversationId })),
    );
    expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200, 200, 200]);
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/ai/conversations/${first.conversationId}`,
      headers: session.auth,
    });
    const messages = one.json().data.messages as { role: string; content: string }[];
    expect(messages).toHaveLength(10);
    expect(messages.map((m) => m.role)).toEqual(Array.from({ length: 10 }, (_, i) => (i % 2 ? 'assistant' : 'user')));
    // Each question is followed by its own answer: the days it asked for are the days answered.
    const days: Record<string, RegExp> = {
      'And over 14 days?': /14 days/,
      'And over 30 days?': /30 days/,
    };
    for (let i = 2; i < 10; i += 2) {
      const expected = days[messages[i]!.content];
      if (expected) expect(messages[i + 1]!.content).toMatch(expected);
    }
    expect(
      messages
        .slice(2)
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .sort(),
    ).toEqual([...followUps].sort());
  });

  it('refuses malformed ids and bodies with the envelope, never a 5xx', async () => {
    for (const [method, url] of [
      ['GET', '/api/ai/conversations/not-a-uuid'],
      ['DELETE', '/api/ai/conversations/not-a-uuid'],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: session.auth });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    }
    for (const payload of [{ message: 'hi', conversationId: 'x' }, { message: 'hi', language: 'fr' }, { message: 7 }]) {
      const response = await chat(payload, session.auth, { accept: 'text/event-stream' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false });
    }
  });

  it('keeps conversations to their member: another user can neither read, follow up nor delete them', async () => {
    const mine = (await chat({ message: 'Which campaigns are wasting money?' })).json().data;
    const other = await registerUser(t.app);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/ai/conversations/${mine.conversationId}`,
      headers: other.auth,
    });
    expect(read.statusCode).toBe(404);
    const follow = await chat({ message: 'and yesterday?', conversationId: mine.conversationId }, other.auth);
    expect(follow.statusCode).toBe(404);
    const list = await t.app.inject({ method: 'GET', url: '/api/ai/conversations', headers: other.auth });
    expect(list.json().data).toEqual([]);
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/ai/conversations/${mine.conversationId}`,
      headers: other.auth,
    });
    expect(gone.statusCode).toBe(404);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/ai/conversations/${mine.conversationId}`,
      headers: session.auth,
    });
    expect(deleted.statusCode).toBe(200);
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/ai/conversations/${mine.conversationId}`,
      headers: session.auth,
    });
    expect(after.statusCode).toBe(404);
  });

  it.each([
    ['en', 'Can you book me a flight to Paris?', /can only answer/],
    ['th', 'ช่วยจองตั๋วเครื่องบินไปปารีสให้หน่อย', /ตอบได้จากตัวเลข/],
  ])(
    'answers a question it cannot answer in the asked language (%s), not counted',
    async (language, message, words) => {
      const before = await usage();
      const data = (await chat({ message })).json().data;
      expect(data).toMatchObject({ language, counted: false });
      expect(data.response).toMatch(words);
      if (language === 'th') expect(data.response).not.toMatch(/[A-Za-z]{4,}/);
      expect(await usage()).toBe(before);
    },
  );

  it('streams the answer as server-sent events when asked', async () => {
    const response = await chat({ message: 'What are my best campaigns?' }, session.auth, {
      accept: 'text/event-stream',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/event-stream/);
    const events = response.body
      .trim()
      .split('\n\n')
      .map((block) => ({
        event: /^event: (.*)$/m.exec(block)![1],
        data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!),
      }));
    expect(events.at(-1)!.event).toBe('done');
    const text = events
      .filter((e) => e.event === 'delta')
      .map((e) => e.data.text)
      .join('');
    expect(text).toBe(events.at(-1)!.data.data.response);
  });

  it("analyses the account's own figures over a range, a campaign of it too; another's account is a 404, uncounted", async () => {
    const last = await lastDay();
    const range = { from: addDays(last, -6), to: last };
    const whole = await t.app.inject({
      method: 'POST',
      url: '/api/ai/analyze-performance',
      headers: session.auth,
      payload: { adAccountId: account.id, ...range },
    });
    expect(whole.statusCode).toBe(200);
    expect(whole.json().data.length).toBeGreaterThan(0);
    const wasted = await sandboxWasted(range.from, range.to);
    const one = await t.app.inject({
      method: 'POST',
      url: '/api/ai/analyze-performance',
      headers: session.auth,
      payload: { adAccountId: account.id, campaignId: wasted[0]!.id, ...range },
    });
    expect(one.statusCode).toBe(200);
    const other = await registerUser(t.app);
    const before = (await t.app.inject({ method: 'GET', url: '/api/ai/usage', headers: other.auth })).json().data.used;
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/ai/analyze-performance',
      headers: other.auth,
      payload: { adAccountId: account.id, ...range },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/ai/usage', headers: other.auth })).json().data.used).toBe(
      before,
    );
    const badRange = await t.app.inject({
      method: 'POST',
      url: '/api/ai/analyze-performance',
      headers: session.auth,
      payload: { adAccountId: account.id, from: range.to, to: range.from },
    });
    expect(badRange.statusCode).toBe(400);
  });

  it('writes Thai ad copy from plain Thai text, wholly in Thai', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate-ad-copy',
      headers: session.auth,
      payload: { productInfo: 'เค้กส้มสูตรโบราณ หอมส้มแท้ อบสดใหม่ทุกวัน ส่งฟรีในกรุงเทพ', platform: 'facebook' },
    });
    expect(response.statusCode).toBe(200);
    const copy = response.json().data as string[];
    expect(copy).toHaveLength(3);
    for (const variation of copy) {
      expect(variation).toContain('เค้กส้มสูตรโบราณ');
      expect(variation).not.toMatch(/[A-Za-z]/);
    }
  });
});
