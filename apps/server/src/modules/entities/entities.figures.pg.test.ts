import { addDays, derivedMetrics, localDate, type EntityRow } from '@adpilot/contracts';
import { adAccounts } from '@adpilot/db';
import { defaultSeed } from '@adpilot/meta-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxAccounts } from '../../test/connect-account.ts';
import { createSandboxTestApp, registerUser, type SandboxTestApp } from '../../test/test-app.ts';

/** One THB account in Bangkok of 10 campaigns × 5 ad sets × 10 ads, two of them under campaign budget. */
const seed = {
  ...defaultSeed(),
  personas: [
    {
      name: 'Explorer advertiser',
      accounts: [
        {
          name: 'Explorer 500',
          currency: 'THB',
          timezone: 'Asia/Bangkok',
          campaigns: 10,
          adSetsPerCampaign: 5,
          adsPerAdSet: 10,
          cboCampaigns: 2,
        },
      ],
    },
  ],
};

interface Sum {
  spend: number;
  impressions: number;
  reach: number;
  clicks: number;
  conversions: number;
  conversionValue: number;
}

const close = (a: number | null, b: number | null) =>
  a === null || b === null ? expect(a).toBe(b) : expect(a).toBeCloseTo(b, 6);

describe('the explorer’s figures against the sandbox’s own daily insights', () => {
  let t: SandboxTestApp;
  let session: Awaited<ReturnType<typeof registerUser>>;
  let accountId: string;
  let today: string;
  /** The sandbox's ad-level days, read straight from its Graph API, and each ad's parents. */
  let days: { ad: string; date: string; sum: Sum }[];
  let parents: Map<string, { adset: string; campaign: string }>;

  beforeAll(async () => {
    t = await createSandboxTestApp({}, {}, { seed });
    session = await registerUser(t.app);
    [accountId] = (await connectSandboxAccounts(t.app, session.auth)) as [string];
    const [account] = await t.inspect((db) => db.select().from(adAccounts).where(eq(adAccounts.id, accountId)));
    const token = t.secretBox.decrypt(account!.accessTokenEnc);
    const meta = t.ctx.meta.client();
    const act = `act_${account!.facebookAccountId}`;
    today = localDate(account!.timezone, t.clock.now.getTime());
    const rows = await meta.getInsights(token, act, {
      level: 'ad',
      timeRange: { since: addDays(today, -60), until: today },
      timeIncrement: 1,
    });
    days = rows.map((row) => ({
      ad: row.ad_id!,
      date: row.date_start!,
      sum: {
        spend: row.spend ?? 0,
        impressions: row.impressions ?? 0,
        reach: row.reach ?? 0,
        clicks: row.clicks ?? 0,
        conversions: row.conversions ?? 0,
        conversionValue: row.conversionValue ?? 0,
      },
    }));
    const ads = await meta.listAds(token, act);
    parents = new Map(ads.map((ad) => [ad.id, { adset: ad.adset_id, campaign: ad.campaign_id }]));
  }, 120_000);
  afterAll(() => t.close());

  /** The independent sums: per entity of a level over from…to, from the sandbox's ad days. */
  function expected(level: 'campaign' | 'adset' | 'ad', from: string, to: string): Map<string, Sum> {
    const out = new Map<string, Sum>();
    for (const day of days) {
      if (day.date < from || day.date > to) continue;
      const id = level === 'ad' ? day.ad : parents.get(day.ad)?.[level];
      if (!id) continue;
      const sum = out.get(id) ?? { spend: 0, impressions: 0, reach: 0, clicks: 0, conversions: 0, conversionValue: 0 };
      for (const key of Object.keys(sum) as (keyof Sum)[]) sum[key] += day.sum[key];
      out.set(id, sum);
    }
    return out;
  }

  function checkMetrics(actual: EntityRow['metrics'], sum: Sum | undefined) {
    const s = sum ?? { spend: 0, impressions: 0, reach: 0, clicks: 0, conversions: 0, conversionValue: 0 };
    const totals = { ...s, linkClicks: 0 };
    close(actual.spend, s.spend);
    close(actual.results, s.conversions);
    close(actual.impressions, s.impressions);
    close(actual.clicks, s.clicks);
    close(actual.cpa, derivedMetrics.cpa(totals));
    close(actual.roas, derivedMetrics.roas(totals));
    close(actual.ctr, derivedMetrics.ctr(totals));
    close(actual.cpc, derivedMetrics.cpc(totals));
    close(actual.cpm, derivedMetrics.cpm(totals));
    close(actual.frequency, derivedMetrics.frequency(totals));
  }

  async function everyRow(
    query: string,
  ): Promise<{ rows: EntityRow[]; totals: { currency: string; metrics: EntityRow['metrics'] }[] }> {
    const rows: EntityRow[] = [];
    let cursor: string | null = null;
    let totals: { currency: string; metrics: EntityRow['metrics'] }[] = [];
    do {
      const response: {
        statusCode: number;
        body: string;
        json(): { data: EntityRow[]; totals: typeof totals; nextCursor: string | null };
      } = await t.app.inject({
        method: 'GET',
        url: `/api/entities?${query}&limit=200${cursor ? `&cursor=${cursor}` : ''}`,
        headers: session.auth,
      });
      expect(response.statusCode, response.body).toBe(200);
      const body: { data: EntityRow[]; totals: typeof totals; nextCursor: string | null } = response.json();
      rows.push(...body.data);
      totals = body.totals;
      cursor = body.nextCursor;
    } while (cursor);
    return { rows, totals };
  }

  it.each([
    ['ad', 'last_7d', 7],
    ['adset', 'last_14d', 14],
    ['campaign', 'last_30d', 30],
  ] as const)(
    'every %s figure over %s and the previous period equals the sandbox’s sums',
    async (level, window, n) => {
      const { rows, totals } = await everyRow(`level=${level}&window=${window}&adAccountId=${accountId}&sort=-cpa`);
      expect(rows).toHaveLength(level === 'ad' ? 500 : level === 'adset' ? 50 : 10);
      const from = addDays(today, -n);
      const to = addDays(today, -1);
      const current = expected(level, from, to);
      const previous = expected(level, addDays(from, -n), addDays(from, -1));
      for (const row of rows) {
        checkMetrics(row.metrics, current.get(row.externalId));
        checkMetrics(row.previous, previous.get(row.externalId));
      }
      // The totals row: the same days summed over every entity of the filter, in the account's one currency.
      const all = [...current.values()].reduce(
        (sum, s) => {
          for (const key of Object.keys(sum) as (keyof Sum)[]) sum[key] += s[key];
          return sum;
        },
        { spend: 0, impressions: 0, reach: 0, clicks: 0, conversions: 0, conversionValue: 0 },
      );
      expect(totals.map((total) => total.currency)).toEqual(['THB']);
      checkMetrics(totals[0]!.metrics, all);
      // Sorted by CPA, highest first, undefined CPAs last.
      const cpas = rows.map((row) => row.metrics.cpa);
      const defined = cpas.filter((cpa): cpa is number => cpa !== null);
      expect(defined).toEqual([...defined].sort((a, b) => b - a));
      expect(cpas.slice(defined.length).every((cpa) => cpa === null)).toBe(true);
    },
    60_000,
  );

  it('answers a bulk budget change’s from → to per row, and Meta’s four an hour on one budget', async () => {
    const { rows } = await everyRow(`level=adset&adAccountId=${accountId}&sort=name`);
    const byHolder = new Map<string, EntityRow[]>();
    for (const row of rows) byHolder.set(row.budget.holderId!, [...(byHolder.get(row.budget.holderId!) ?? []), row]);
    // Twelve ad sets: five under one campaign budget, seven holding their own.
    const shared = [...byHolder.values()].find(
      (list) => list.length === 5 && list[0]!.budget.holderLevel === 'campaign',
    )!;
    const own = rows.filter((row) => row.budget.holderLevel === 'adset').slice(0, 7);
    const items = [...shared, ...own].map((row) => ({ entityId: row.id, type: 'increase_budget', percent: 10 }));
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/entities/actions',
      headers: session.auth,
      payload: { items, dryRun: true },
    });
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json().data as {
      entityId: string;
      outcome: string;
      code?: string;
      from: number;
      to: number;
      targetId: string;
    }[];
    expect(results.map((r) => r.entityId)).toEqual(items.map((item) => item.entityId));
    expect(
      results.slice(0, 4).every((r) => r.outcome === 'would_apply' && r.targetId === shared[0]!.budget.holderId),
    ).toBe(true);
    expect(results[4]).toMatchObject({ outcome: 'refused', code: 'BUDGET_CHANGE_LIMIT' });
    for (const [index, row] of own.entries())
      expect(results[5 + index]).toMatchObject({
        outcome: 'would_apply',
        targetId: row.id,
        from: row.budget.daily,
        to: Math.round(row.budget.daily! * 110) / 100,
      });
    // Nothing was written: the rows are as they were.
    const again = await everyRow(`level=adset&adAccountId=${accountId}&sort=name`);
    expect(again.rows.map((row) => row.budget)).toEqual(rows.map((row) => row.budget));
  });

  it('marks who holds each budget: the campaign under campaign budget, else the ad set', async () => {
    const { rows } = await everyRow(`level=adset&adAccountId=${accountId}`);
    const holders = new Set(rows.map((row) => row.budget.holderLevel));
    expect(holders).toEqual(new Set(['campaign', 'adset']));
    for (const row of rows) {
      expect(row.parents.campaign?.name).toBeTruthy();
      if (row.budget.holderLevel === 'campaign') expect(row.budget.holderId).not.toBe(row.id);
      else expect(row.budget.holderId).toBe(row.id);
    }
  });
});
