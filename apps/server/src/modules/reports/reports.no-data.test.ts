import { addDays, localDate, type ReportSeries } from '@adpilot/contracts';
import { adAccounts } from '@adpilot/db';
import { defaultSeed } from '@adpilot/meta-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxAccounts } from '../../test/connect-account.ts';
import { createSandboxTestApp, registerUser, type SandboxTestApp } from '../../test/test-app.ts';

/**
 * A 90-day report of a sandbox account whose delivery began 60 days ago (the sandbox's default history): the days
 * before its first data are "no data", never zero, and from that day on the figures are the sandbox's own.
 */
const seed = {
  ...defaultSeed(),
  personas: [
    {
      name: 'Reports advertiser',
      accounts: [{ name: 'Sixty days', currency: 'THB', timezone: 'Asia/Bangkok', campaigns: 4, adSetsPerCampaign: 2 }],
    },
  ],
};

describe('a 90-day report before the account’s first data (ADR 0104)', () => {
  let t: SandboxTestApp;
  let session: Awaited<ReturnType<typeof registerUser>>;
  let accountId: string;
  let today: string;
  /** The sandbox's own account-level spend per day, straight from its Graph API. */
  let sandboxSpend: Map<string, number>;

  beforeAll(async () => {
    t = await createSandboxTestApp({}, {}, { seed });
    session = await registerUser(t.app);
    [accountId] = (await connectSandboxAccounts(t.app, session.auth)) as [string];
    const [row] = await t.inspect((db) => db.select().from(adAccounts).where(eq(adAccounts.id, accountId)));
    today = localDate(row!.timezone, t.clock.now.getTime());
    const rows = await t.ctx.meta
      .client()
      .getInsights(t.secretBox.decrypt(row!.accessTokenEnc), `act_${row!.facebookAccountId}`, {
        level: 'account',
        timeRange: { since: addDays(today, -89), until: today },
        timeIncrement: 1,
      });
    sandboxSpend = new Map(rows.map((r) => [r.date_start!, r.spend ?? 0]));
  }, 120_000);
  afterAll(() => t.close());

  const report = async (level: 'account' | 'campaign') => {
    const from = addDays(today, -89);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/reports?from=${from}&to=${today}&level=${level}&adAccountId=${accountId}`,
      headers: session.auth,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.series as ReportSeries[];
  };

  it('has no zero day before the first data, and the sandbox’s spend from it on', async () => {
    const [series] = await report('account');
    const first = [...sandboxSpend.keys()].sort()[0]!;
    expect(first > addDays(today, -89)).toBe(true);
    expect(series!.firstDataDay).toBe(first);
    expect(series!.days).toHaveLength(90);
    const before = series!.days.filter((day) => day.date < first);
    expect(before.length).toBeGreaterThanOrEqual(25);
    for (const day of before) {
      expect(day, day.date).toEqual({
        date: day.date,
        hasData: false,
        spend: null,
        conversions: null,
        conversionValue: null,
        cpa: null,
        roas: null,
      });
    }
    for (const day of series!.days.filter((d) => d.date >= first)) {
      expect(day.hasData, day.date).toBe(true);
      // Today is still delivering: the sync and this read saw it at different instants.
      if (day.date < today) expect(day.spend!, day.date).toBeCloseTo(sandboxSpend.get(day.date) ?? 0, 2);
    }
    // The days before the first data add nothing: the totals are the days with data.
    const sum = series!.days.reduce((total, day) => total + (day.spend ?? 0), 0);
    expect(series!.totals.spend).toBeCloseTo(sum, 2);
  });

  it('begins the dashboard’s 90-day chart at the first day with data, with no zero day before it', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/reports/overview?days=90&to=${today}`,
      headers: session.auth,
    });
    expect(response.statusCode, response.body).toBe(200);
    const overview = response.json().data;
    expect(overview.from).toBe(addDays(today, -89));
    const [thb] = overview.currencies as { currency: string; days: { date: string; spend: number }[] }[];
    const first = [...sandboxSpend.keys()].sort()[0]!;
    expect(thb!.currency).toBe('THB');
    expect(thb!.days[0]!.date).toBe(first);
    expect(thb!.days.at(-1)!.date).toBe(today);
    expect(thb!.days).toHaveLength(90 - (Date.parse(first) - Date.parse(addDays(today, -89))) / 86_400_000);
    for (const day of thb!.days.filter((d) => d.date < today)) {
      expect(day.spend, day.date).toBeCloseTo(sandboxSpend.get(day.date) ?? 0, 2);
    }
  });

  it('marks the same days "no data" on every campaign’s series', async () => {
    const series = await report('campaign');
    expect(series.length).toBeGreaterThan(1);
    for (const campaign of series.filter((s) => s.days.length > 0)) {
      const first = campaign.firstDataDay!;
      expect(campaign.days.filter((day) => day.date < first).every((day) => !day.hasData && day.spend === null)).toBe(
        true,
      );
      expect(campaign.days.filter((day) => day.date >= first).every((day) => day.hasData && day.spend !== null)).toBe(
        true,
      );
    }
  });
});
