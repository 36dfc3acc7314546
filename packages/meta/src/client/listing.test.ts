import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIG_ACCOUNT_SEED, startFixture, type Fixture } from '@adpilot/meta-sandbox/testing';
import { appSecretProof } from './graph-transport.ts';

const ACT = 'act_500500500500';
// A fresh sandbox per test: call counts, usage percentages and the request log start from nothing.
let fixture: Fixture;
beforeEach(async () => {
  fixture = await startFixture({ seed: BIG_ACCOUNT_SEED });
});
afterEach(() => fixture.close());

describe('lists', () => {
  it('follows paging.next until the last page: every ad once, one HTTP call per page', async () => {
    fixture.sandbox.stats.reset();
    const ads = await fixture.client({ pageSize: 120 }).listAds(fixture.token, ACT);
    expect(ads).toHaveLength(500);
    expect(new Set(ads.map((ad) => ad.id)).size).toBe(500);
    const stats = fixture.sandbox.stats.snapshot();
    expect(stats.total).toBe(Math.ceil(500 / 120));
    expect(stats.byKind.ads).toBe(5);
    expect(stats.byAccount['500500500500']).toBe(5);
  });

  it('a 3-page listing carries the appsecret_proof on every page, followed links included', async () => {
    const sent: URL[] = [];
    const recording: typeof fetch = (input, init) => {
      sent.push(new URL(String(input)));
      return fetch(input, init);
    };
    fixture.sandbox.stats.reset();
    const campaigns = await fixture.client({ pageSize: 4, fetch: recording }).listCampaigns(fixture.token, ACT);
    expect(campaigns).toHaveLength(10);
    expect(sent).toHaveLength(3);
    const proof = appSecretProof(fixture.sandbox.appSecret, fixture.token);
    for (const url of sent) expect(url.searchParams.get('appsecret_proof')).toBe(proof);
    expect(sent.slice(1).every((url) => url.searchParams.has('after'))).toBe(true);
    expect(fixture.sandbox.stats.snapshot().byKind.campaigns).toBe(3);
  });

  it('answers absolute next links that carry the token but not the proof, as Meta does', async () => {
    const proof = appSecretProof(fixture.sandbox.appSecret, fixture.token);
    const first = await fetch(`${fixture.url}/v27.0/${ACT}/campaigns?limit=4&fields=id,name&appsecret_proof=${proof}`, {
      headers: { authorization: `Bearer ${fixture.token}` },
    });
    const page = (await first.json()) as { data: unknown[]; paging: { next?: string } };
    expect(page.data).toHaveLength(4);
    const next = new URL(page.paging.next ?? '');
    expect(next.href.startsWith(`${fixture.url}/v27.0/${ACT}/campaigns?`)).toBe(true);
    expect(next.searchParams.get('access_token')).toBe(fixture.token);
    expect(next.searchParams.get('fields')).toBe('id,name');
    expect(next.searchParams.has('appsecret_proof')).toBe(false);

    // Followed verbatim, the link is refused: the app requires the proof on every call.
    const bare = await fetch(next);
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({
      error: {
        code: 100,
        type: 'GraphMethodException',
        message: 'API calls from the server require an appsecret_proof argument',
      },
    });

    next.searchParams.set('appsecret_proof', proof);
    const second = (await (await fetch(next)).json()) as {
      data: unknown[];
      paging: { next?: string; previous?: string };
    };
    const third = new URL(second.paging.next ?? '');
    third.searchParams.set('appsecret_proof', proof);
    const last = (await (await fetch(third)).json()) as { data: unknown[]; paging: { next?: string } };
    expect(second.data).toHaveLength(4);
    expect(second.paging.previous).toBeDefined();
    expect(last.data).toHaveLength(2);
    expect(last.paging.next).toBeUndefined();
  });

  it('a lenient sandbox (requireAppSecretProof: false) still refuses a wrong proof', async () => {
    const lenient = await startFixture({ seed: BIG_ACCOUNT_SEED, requireAppSecretProof: false });
    try {
      const ok = await fetch(`${lenient.url}/v27.0/me`, { headers: { authorization: `Bearer ${lenient.token}` } });
      expect(ok.status).toBe(200);
      const wrong = await fetch(`${lenient.url}/v27.0/me?appsecret_proof=${'0'.repeat(64)}`, {
        headers: { authorization: `Bearer ${lenient.token}` },
      });
      expect(((await wrong.json()) as { error: { code: number } }).error.code).toBe(100);
    } finally {
      await lenient.close();
    }
  });

  it('follows a next link that names another origin on the configured origin only', async () => {
    const requested: string[] = [];
    const pages = [
      {
        data: [{ id: '1', name: 'A', status: 'ACTIVE', effective_status: 'ACTIVE' }],
        paging: { next: 'http://proxy.internal:9/v27.0/act_1/campaigns?after=x&access_token=t' },
      },
      { data: [{ id: '2', name: 'B', status: 'ACTIVE', effective_status: 'ACTIVE' }] },
    ];
    const fetchStub: typeof fetch = async (input) => {
      requested.push(String(input));
      return Response.json(pages[requested.length - 1]);
    };
    const campaigns = await fixture
      .client({ graphBaseUrl: 'https://graph.example.com', fetch: fetchStub })
      .listCampaigns('t', 'act_1');
    expect(campaigns.map((campaign) => campaign.id)).toEqual(['1', '2']);
    const followed = new URL(requested[1] ?? '');
    expect(`${followed.origin}${followed.pathname}`).toBe('https://graph.example.com/v27.0/act_1/campaigns');
    expect(followed.searchParams.get('after')).toBe('x');
    expect(followed.searchParams.get('appsecret_proof')).toBe(appSecretProof(fixture.sandbox.appSecret, 't'));
  });

  it('lists campaigns, ad sets and ads with parents, statuses and budgets in minor units', async () => {
    const client = fixture.client();
    const [campaigns, adSets, ads] = await Promise.all([
      client.listCampaigns(fixture.token, ACT),
      client.listAdSets(fixture.token, ACT),
      client.listAds(fixture.token, ACT),
    ]);
    expect(campaigns).toHaveLength(10);
    expect(adSets).toHaveLength(50);
    const cbo = campaigns.filter((campaign) => campaign.daily_budget !== undefined);
    expect(cbo.length).toBeGreaterThanOrEqual(1);
    expect(cbo[0]?.bid_strategy).toBe('LOWEST_COST_WITHOUT_CAP');
    for (const adSet of adSets) {
      const underCbo = cbo.some((campaign) => campaign.id === adSet.campaign_id);
      expect(adSet.daily_budget !== undefined || adSet.lifetime_budget !== undefined).toBe(!underCbo);
    }
    expect(adSets.some((adSet) => adSet.lifetime_budget !== undefined && adSet.end_time !== undefined)).toBe(true);
    const campaignIds = new Set(campaigns.map((campaign) => campaign.id));
    const adSetIds = new Set(adSets.map((adSet) => adSet.id));
    expect(ads.every((ad) => campaignIds.has(ad.campaign_id) && adSetIds.has(ad.adset_id))).toBe(true);
    expect(campaigns.some((campaign) => campaign.status === 'PAUSED')).toBe(true);
    expect(ads.some((ad) => ad.effective_status === 'CAMPAIGN_PAUSED')).toBe(true);
    expect(ads[0]?.created_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/);
  });

  it('reads an ad account and its usage headers', async () => {
    const sent: URL[] = [];
    const recording: typeof fetch = (input, init) => {
      sent.push(new URL(String(input)));
      return fetch(input, init);
    };
    const client = fixture.client({ fetch: recording });
    const account = await client.getAdAccount(fixture.token, '500500500500');
    expect(account).toMatchObject({
      id: ACT,
      account_id: '500500500500',
      currency: 'USD',
      timezone_name: 'America/New_York',
      account_status: 1,
      // Meta's minimum daily budget, asked for by name and read as a number of cents.
      min_daily_budget: 100,
    });
    expect(sent[0]?.searchParams.get('fields')?.split(',')).toContain('min_daily_budget');
    expect(Number(account.amount_spent)).toBeGreaterThan(0);
    const before = client.usage(ACT)?.accIdUtilPct ?? 0;
    await client.getAdAccount(fixture.token, ACT);
    expect(client.usage(ACT)?.accIdUtilPct).toBeGreaterThan(before);
    expect(client.usage(ACT)?.accessTier).toBe('development_access');
  });

  it('reads min_daily_budget sent as a numeric string the same way, and an account without it as unknown', async () => {
    const answers = [{ min_daily_budget: '150', currency: 'JPY' }, { currency: 'JPY' }];
    const stub: typeof fetch = async () =>
      Response.json({
        id: 'act_1',
        account_id: '1',
        name: 'Tokyo',
        timezone_name: 'Asia/Tokyo',
        account_status: 1,
        ...answers.shift(),
      });
    const client = fixture.client({ fetch: stub });
    expect((await client.getAdAccount(fixture.token, 'act_1')).min_daily_budget).toBe(150);
    expect((await client.getAdAccount(fixture.token, 'act_1')).min_daily_budget).toBeUndefined();
  });
});
