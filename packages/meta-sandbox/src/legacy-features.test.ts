import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetaRetiredFeatureError } from '@adpilot/meta';
import { startFixture, type Fixture } from '../test/fixtures.ts';

/**
 * Since 4 November 2026 a new Meta app may not use multi-ID reads, field aliases, method override, JSONP or
 * date formatting on any version (Graph API v27.0 changelog). The sandbox is such an app: each is refused with
 * code 12, so a client path that brings one back fails here and in every suite that runs on the sandbox.
 */
let fixture: Fixture;
let adIds: string[];
beforeAll(async () => {
  fixture = await startFixture();
  adIds = [...fixture.sandbox.world.ads.keys()].slice(0, 3);
});
afterAll(() => fixture.close());

async function raw(path: string, init: RequestInit & { version?: string } = {}) {
  const proof = fixture.sandbox.tokens.appSecretProof(fixture.token);
  const url = `${fixture.url}/${init.version ?? 'v27.0'}/${path}${path.includes('?') ? '&' : '?'}appsecret_proof=${proof}`;
  const response = await fetch(url, {
    ...init,
    headers: { authorization: `Bearer ${fixture.token}`, ...init.headers },
  });
  return { status: response.status, body: (await response.json()) as { error?: Record<string, unknown> } };
}

function expectRetired(answer: { status: number; body: { error?: Record<string, unknown> } }, feature: RegExp) {
  expect(answer.status).toBe(400);
  expect(answer.body.error).toMatchObject({ code: 12, type: 'OAuthException', is_transient: false });
  expect(answer.body.error?.message).toMatch(/^\(#12\) /);
  expect(answer.body.error?.message).toMatch(feature);
  expect(answer.body.error?.fbtrace_id).toEqual(expect.any(String));
}

describe('legacy Graph features are refused as for an app created after 4 November 2026', () => {
  it('refuses GET /?ids= on the pinned version and on older ones, and counts no object read', async () => {
    for (const version of ['v27.0', 'v25.0', 'v21.0']) {
      fixture.sandbox.stats.reset();
      const answer = await raw(`?ids=${adIds.join(',')}&fields=id,status`, { version });
      expectRetired(answer, /Multi-ID requests/);
      expect(fixture.sandbox.stats.snapshot().byKind.object ?? 0).toBe(0);
    }
  });

  it('refuses a field alias, at the top level and inside a nested selection', async () => {
    const [adId] = adIds;
    expectRetired(await raw(`${adId}?fields=id,status.as(state)`), /Field aliases/);
    expectRetired(await raw(`${adId}?fields=id,creative{id,name.as(title)}`), /Field aliases/);
    // The same read without the alias is answered.
    expect((await raw(`${adId}?fields=id,status`)).status).toBe(200);
  });

  it('refuses method override as a parameter and as a header, and the write is not applied', async () => {
    const [adId] = adIds;
    const before = fixture.sandbox.world.ads.get(adId!)!.statusLog.length;
    expect(before).toBeGreaterThan(0);
    const writes = fixture.sandbox.mutations.length;
    expectRetired(await raw(`${adId}?method=post&status=PAUSED`), /HTTP method override/);
    expectRetired(
      await raw(`${adId}?status=PAUSED`, { method: 'GET', headers: { 'x-http-method-override': 'POST' } }),
      /HTTP method override/,
    );
    expect(fixture.sandbox.world.ads.get(adId!)!.statusLog).toHaveLength(before);
    expect(fixture.sandbox.mutations).toHaveLength(writes);
  });

  it('refuses JSONP callbacks and date formatting', async () => {
    const [adId] = adIds;
    expectRetired(await raw(`${adId}?fields=id&callback=handle`), /JSONP/);
    expectRetired(await raw(`${adId}?fields=id,created_time&date_format=U`), /Date\/time formatting/);
  });

  it('refuses a multi-ID read inside a batch, item by item, while the other items are answered', async () => {
    const [first] = adIds;
    const answers = await fixture.client().batch(fixture.token, [
      { method: 'GET', relativeUrl: `?ids=${adIds.join(',')}&fields=id` },
      { method: 'GET', relativeUrl: `${first}?fields=id` },
    ]);
    expect(answers[0]?.error).toBeInstanceOf(MetaRetiredFeatureError);
    expect(answers[0]?.error?.code).toBe(12);
    expect(answers[1]?.error).toBeUndefined();
    expect(answers[1]?.body).toMatchObject({ id: first });
  });

  it('the client maps code 12 to MetaRetiredFeatureError and does not retry it', async () => {
    const client = fixture.client();
    fixture.sandbox.stats.reset();
    await expect(client.getEntity(fixture.token, adIds[0]!, ['id', 'status.as(x)'])).rejects.toBeInstanceOf(
      MetaRetiredFeatureError,
    );
    expect(fixture.sandbox.stats.snapshot().total).toBe(1);
  });
});

/** Every parameter name a closed feature is sent with, in a query, a form body or a batch item's URL or body. */
const LEGACY = /(^|[?&])(ids|method|callback|date_format)=|\.as\(/;

describe('no client path uses a closed feature', () => {
  it('every call of a full sync, live read and write names none of them, batch items included', async () => {
    const sent: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      sent.push(decodeURIComponent(url.search));
      const body =
        typeof init?.body === 'string' ? init.body : init?.body instanceof URLSearchParams ? String(init.body) : '';
      const params = new URLSearchParams(body);
      sent.push(decodeURIComponent(body));
      for (const item of JSON.parse(params.get('batch') ?? '[]') as { relative_url: string; body?: string }[]) {
        sent.push(`?${item.relative_url.split('?')[1] ?? ''}`, item.body ?? '');
      }
      return fetch(input, init);
    };
    const client = fixture.client({ fetch: recording });
    const accounts = await client.listAdAccounts(fixture.token);
    const act = accounts[0]!.id;
    await client.getAdAccount(fixture.token, act);
    await client.listCampaigns(fixture.token, act);
    const adSets = await client.listAdSets(fixture.token, act);
    const ads = await client.listAds(fixture.token, act);
    await client.getInsights(fixture.token, act, {
      level: 'ad',
      timeRange: { since: '2026-03-01', until: '2026-03-09' },
      timeIncrement: 1,
    });
    await client.getEntities(
      fixture.token,
      ads.slice(0, 5).map((ad) => ad.id),
      ['id', 'status'],
      { accountId: act },
    );
    const adSet = adSets.find((candidate) => candidate.daily_budget !== undefined)!;
    await client.readLiveValues(fixture.token, act, [{ id: adSet.id, field: 'daily_budget' }]);
    await client.writeFields(fixture.token, act, [{ id: ads[0]!.id, field: 'status', value: 'PAUSED' }]);
    await client.updateStatus(fixture.token, ads[0]!.id, 'ACTIVE', { accountId: act });
    expect(sent.length).toBeGreaterThan(10);
    expect(sent.filter((text) => LEGACY.test(text))).toEqual([]);
  });
});
