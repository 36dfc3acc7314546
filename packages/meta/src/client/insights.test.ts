import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetaTooMuchDataError } from './errors.ts';
import { startFixture, type Fixture } from '@adpilot/meta-sandbox/testing';
import { parseInsightsRow } from './insights.ts';

describe('parseInsightsRow', () => {
  it('turns numeric strings into numbers and action arrays into typed lists, with purchase totals', () => {
    const row = parseInsightsRow({
      account_id: '123',
      ad_id: '120200000000000001',
      ad_name: '20% Off',
      date_start: '2026-03-01',
      date_stop: '2026-03-01',
      impressions: '361324',
      spend: '5339.5',
      ctr: '1.234567',
      inline_link_clicks: '850',
      actions: [
        { action_type: 'link_click', value: '900' },
        { action_type: 'purchase', value: '12' },
        { action_type: 'omni_purchase', value: '14' },
      ],
      action_values: [
        { action_type: 'purchase', value: '1100.5' },
        { action_type: 'omni_purchase', value: '1300.25' },
      ],
      purchase_roas: [{ action_type: 'omni_purchase', value: '0.243516' }],
    });
    expect(row).toMatchObject({
      account_id: '123',
      ad_id: '120200000000000001',
      ad_name: '20% Off',
      impressions: 361324,
      spend: 5339.5,
      ctr: 1.234567,
      linkClicks: 850,
      conversions: 14,
      conversionValue: 1300.25,
    });
    expect(row.purchase_roas).toEqual([{ actionType: 'omni_purchase', value: 0.243516 }]);
    expect(row.actions?.[1]).toEqual({ actionType: 'purchase', value: 12 });
  });

  it('falls back to purchase, then the pixel purchase, then zero; link clicks to the link_click action', () => {
    const pixel = parseInsightsRow({
      date_start: '2026-03-01',
      date_stop: '2026-03-01',
      actions: [
        { action_type: 'link_click', value: '40' },
        { action_type: 'offsite_conversion.fb_pixel_purchase', value: '3' },
      ],
    });
    expect(pixel).toMatchObject({ linkClicks: 40, conversions: 3, conversionValue: 0 });
    expect(parseInsightsRow({ date_start: '2026-03-01', date_stop: '2026-03-01' })).toMatchObject({
      linkClicks: 0,
      conversions: 0,
    });
  });
});

describe('getInsights against the sandbox', () => {
  let fixture: Fixture;
  let actId: string;
  beforeAll(async () => {
    fixture = await startFixture({ maxSyncInsightsRows: 200 });
    actId = `act_${fixture.sandbox.personas[0]?.accountIds[0]}`;
  });
  afterAll(() => fixture.close());

  const range = { since: '2026-02-24', until: '2026-03-09' };

  it('returns one parsed row per account day, spend in major units and ROAS that matches value over spend', async () => {
    const rows = await fixture
      .client()
      .getInsights(fixture.token, actId, { level: 'account', timeRange: range, timeIncrement: 1 });
    expect(rows.map((row) => row.date_start)).toHaveLength(14);
    for (const row of rows) {
      expect(row.date_start).toBe(row.date_stop);
      expect(row.account_currency).toBe('THB');
      expect(typeof row.spend).toBe('number');
      expect(row.spend).toBeGreaterThan(1000);
      expect(Number.isInteger(row.impressions)).toBe(true);
      expect(row.clicks).toBeLessThanOrEqual(row.impressions ?? 0);
      expect(row.linkClicks).toBe(row.inline_link_clicks);
      expect(Number.isInteger(row.conversions)).toBe(true);
      const roas = row.purchase_roas?.[0]?.value ?? 0;
      if (row.conversionValue > 0) expect(roas).toBeCloseTo(row.conversionValue / (row.spend ?? 1), 3);
    }
    expect(rows.reduce((sum, row) => sum + row.conversions, 0)).toBeGreaterThan(0);
  });

  it('adds up: ad-level rows sum to the account rows of the same days', async () => {
    const client = fixture.client();
    const week = { since: '2026-03-02', until: '2026-03-08' };
    const [account] = await client.getInsights(fixture.token, actId, {
      level: 'account',
      timeRange: week,
      timeIncrement: 'all_days',
    });
    const ads = await client.getInsights(fixture.token, actId, {
      level: 'ad',
      timeRange: week,
      timeIncrement: 'all_days',
      async: 'never',
    });
    expect(ads.every((row) => row.ad_id && row.adset_id && row.campaign_id)).toBe(true);
    const total = ads.reduce((sum, row) => sum + (row.spend ?? 0), 0);
    expect(total).toBeCloseTo(account?.spend ?? 0, 0);
    expect(ads.reduce((sum, row) => sum + (row.impressions ?? 0), 0)).toBe(account?.impressions);
  });

  it('runs an async report run and gets the same rows as the synchronous call', async () => {
    const client = fixture.client();
    const options = {
      level: 'adset' as const,
      timeRange: { since: '2026-03-05', until: '2026-03-08' },
      timeIncrement: 1 as const,
    };
    const sync = await client.getInsights(fixture.token, actId, { ...options, async: 'never' });
    fixture.sandbox.stats.reset();
    fixture.sleeps.length = 0;
    const viaReport = await client.getInsights(fixture.token, actId, { ...options, async: 'always' });
    expect(viaReport).toEqual(sync);
    expect(fixture.sandbox.stats.snapshot().byKind).toMatchObject({ insights_async: 1, report_run: 3 });
    expect(fixture.sleeps).toEqual([1000, 1500]);
  });

  it('falls back to an async report after Meta\'s code-1 "too much data" answer, without retrying it', async () => {
    fixture.sandbox.stats.reset();
    fixture.sleeps.length = 0;
    const rows = await fixture
      .client()
      .getInsights(fixture.token, actId, { level: 'ad', timeRange: range, timeIncrement: 1 });
    expect(rows.length).toBeGreaterThan(200);
    // 1 refused synchronous call, 1 report run started, 2 status polls, then the rows in pages of 500.
    const pages = Math.ceil(rows.length / 500);
    const stats = fixture.sandbox.stats.snapshot();
    expect(stats.byKind).toEqual({ insights: 1, insights_async: 1, report_run: 2 + pages });
    expect(stats.total).toBe(4 + pages);
    expect(fixture.sleeps).toEqual([1000, 1500]);
  });

  it('answers an over-large synchronous request as Meta does: HTTP 500, code 1, subcode 99, not transient', async () => {
    const proof = fixture.sandbox.tokens.appSecretProof(fixture.token);
    const answer = await fetch(
      `${fixture.url}/v27.0/${actId}/insights?level=ad&time_increment=1&time_range=${encodeURIComponent(JSON.stringify(range))}&appsecret_proof=${proof}`,
      { headers: { authorization: `Bearer ${fixture.token}` } },
    );
    expect(answer.status).toBe(500);
    expect(await answer.json()).toMatchObject({
      error: {
        code: 1,
        error_subcode: 99,
        is_transient: false,
        message: "Please reduce the amount of data you're asking for, then retry your request",
      },
    });
    const error = fixture
      .client()
      .getInsights(fixture.token, actId, { level: 'ad', timeRange: range, timeIncrement: 1, async: 'never' });
    await expect(error).rejects.toBeInstanceOf(MetaTooMuchDataError);
  });
});
