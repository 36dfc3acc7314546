import { insightsDaily } from '@adpilot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReportAccount, seedRuleRun } from '../../test/report-fixtures.ts';
import { buildRule } from '../../test/rule-factories.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { unzip } from '../../test/zip-reader.ts';
import { crc32 } from '../../lib/zip.ts';

describe('GET /api/reports', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** An account with two campaigns, and an ad set row that must not be counted twice. */
  function seed(workspaceId: string, currency: string, name: string) {
    return seedReportAccount(t, workspaceId, {
      name,
      currency,
      days: [
        ['c1', '2026-03-01', 100.5, 4, 402],
        ['c1', '2026-03-02', 50, 0, 0],
        ['c2', '2026-03-01', 20, 1, 10],
        ['c2', '2026-02-28', 999, 9, 9],
      ],
      adsetDays: [['s1', '2026-03-01', 100.5, 4, 402]],
    });
  }

  it('sums campaigns per account and day, zero-filled, with CPA and ROAS from the shared formulas', async () => {
    const session = await registerUser(t.app);
    const id = await seed(session.workspaceId, 'THB', 'Shop TH');
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/reports?from=2026-03-01&to=2026-03-03',
      headers: session.auth,
    });
    expect(response.statusCode).toBe(200);
    const report = response.json().data;
    expect(report.level).toBe('account');
    expect(report.series).toHaveLength(1);
    const [series] = report.series;
    expect(series).toMatchObject({ id, name: 'Shop TH', currency: 'THB', adAccountId: id });
    expect(series.days).toEqual([
      {
        date: '2026-03-01',
        hasData: true,
        spend: 120.5,
        conversions: 5,
        conversionValue: 412,
        cpa: 24.1,
        roas: 3.4191,
      },
      { date: '2026-03-02', hasData: true, spend: 50, conversions: 0, conversionValue: 0, cpa: null, roas: 0 },
      { date: '2026-03-03', hasData: true, spend: 0, conversions: 0, conversionValue: 0, cpa: null, roas: null },
    ]);
    expect(series.totals).toEqual({ spend: 170.5, conversions: 5, conversionValue: 412, cpa: 34.1, roas: 2.4164 });
  });

  it('gives one series per campaign with its name, filtered to one account', async () => {
    const session = await registerUser(t.app);
    const id = await seed(session.workspaceId, 'USD', 'Shop US');
    await seed(session.workspaceId, 'JPY', 'Shop JP');
    const report = (
      await t.app.inject({
        method: 'GET',
        url: `/api/reports?from=2026-02-28&to=2026-03-02&level=campaign&adAccountId=${id}`,
        headers: session.auth,
      })
    ).json().data;
    expect(report.series.map((s: { name: string; currency: string }) => [s.name, s.currency])).toEqual([
      ['Campaign c2', 'USD'],
      ['Campaign c1', 'USD'],
    ]);
    expect(report.series[0].totals.spend).toBe(1019);
    expect(report.series.every((s: { adAccountId: string }) => s.adAccountId === id)).toBe(true);
  });

  it('gives days to the campaigns that spent most only, and exact totals to all', async () => {
    const session = await registerUser(t.app);
    const id = await seed(session.workspaceId, 'THB', 'Many');
    await t.inspect((db) =>
      db.insert(insightsDaily).values(
        Array.from({ length: 14 }, (_, n) => ({
          workspaceId: session.workspaceId,
          adAccountId: id,
          level: 'campaign' as const,
          entityExternalId: `${id}-extra-${n}`,
          date: '2026-03-01',
          spend: n + 1,
          conversions: 1,
          conversionValue: 2 * (n + 1),
        })),
      ),
    );
    const report = (
      await t.app.inject({
        method: 'GET',
        url: `/api/reports?from=2026-03-01&to=2026-03-02&level=campaign&adAccountId=${id}`,
        headers: session.auth,
      })
    ).json().data;
    expect(report.series).toHaveLength(16);
    const spends = report.series.map((s: { totals: { spend: number } }) => s.totals.spend);
    expect(spends).toEqual([...spends].sort((a: number, b: number) => b - a));
    expect(report.series.slice(0, 12).every((s: { days: unknown[] }) => s.days.length === 2)).toBe(true);
    expect(report.series.slice(12).every((s: { days: unknown[] }) => s.days.length === 0)).toBe(true);
    // The smallest campaign has no days in the answer, yet its totals are exact.
    expect(report.series.at(-1).totals).toEqual({ spend: 1, conversions: 1, conversionValue: 2, cpa: 1, roas: 2 });
  });

  it("answers 404 for another user's account and never shows their figures", async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const id = await seed(owner.workspaceId, 'THB', 'Private');
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/reports?from=2026-03-01&to=2026-03-02&adAccountId=${id}`,
      headers: other.auth,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const all = (
      await t.app.inject({ method: 'GET', url: '/api/reports?from=2026-03-01&to=2026-03-02', headers: other.auth })
    ).json().data;
    expect(all.series).toEqual([]);
  });

  it.each([
    ['from=2026-02-30&to=2026-03-01', 'from', 'Dates must be YYYY-MM-DD'],
    ['from=2026-03-05&to=2026-03-01', 'from', 'The start date must not be after the end date'],
    ['from=2024-01-01&to=2026-01-01', 'to', 'A report covers at most 366 days'],
    ['from=1999-12-31&to=2000-01-02', 'from', 'Dates must be between 2000-01-01 and 2099-12-31'],
    ['to=2026-03-01', 'from', ''],
    ['from=2026-03-01&to=2026-03-02&level=ad', 'level', ''],
    ['from=2026-03-01&to=2026-03-02&adAccountId=nope', 'adAccountId', 'Unknown ad account'],
  ])('refuses %s with a 400 naming the field', async (query, field, message) => {
    const session = await registerUser(t.app);
    const response = await t.app.inject({ method: 'GET', url: `/api/reports?${query}`, headers: session.auth });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.json().errors[0].field).toBe(field);
    if (message) expect(response.json().errors[0].message).toBe(message);
  });

  it('answers the dashboard overview: per currency and day, rule actions on their day, this month in totals', async () => {
    const session = await registerUser(t.app);
    const thb = await seed(session.workspaceId, 'THB', 'Shop TH');
    await seed(session.workspaceId, 'USD', 'Shop US');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rules',
      headers: session.auth,
      payload: buildRule(),
    });
    expect(created.statusCode).toBe(201);
    const ruleId: string = created.json().data.id;
    await seedRuleRun(t, { workspaceId: session.workspaceId, ruleId, adAccountId: thb }, [
      // Paused at noon in Bangkok on 2 March, resumed by a revert two days later.
      {
        type: 'pause',
        field: 'status',
        at: '2026-03-02T05:00:00Z',
        beforeStatus: 'ACTIVE',
        afterStatus: 'PAUSED',
        state: 'reverted',
        revertedAt: new Date('2026-03-04T05:00:00Z'),
      },
      {
        type: 'increase_budget',
        field: 'daily_budget',
        at: '2026-03-02T06:00:00Z',
        beforeMinor: 10000,
        afterMinor: 12000,
        state: 'applied',
      },
      // Last month: on no day of the range, not in this month's totals.
      {
        type: 'decrease_budget',
        field: 'daily_budget',
        at: '2026-02-20T06:00:00Z',
        beforeMinor: 9000,
        afterMinor: 8000,
        state: 'applied',
      },
    ]);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/reports/overview?days=3&to=2026-03-03',
      headers: session.auth,
    });
    expect(response.statusCode).toBe(200);
    const overview = response.json().data;
    expect(overview).toMatchObject({ from: '2026-03-01', to: '2026-03-03', accounts: 2 });
    expect(overview.currencies.map((c: { currency: string }) => c.currency)).toEqual(['THB', 'USD']);
    expect(overview.currencies[0]).toEqual({
      currency: 'THB',
      days: [
        { date: '2026-03-01', spend: 120.5, results: 5, actions: 0 },
        { date: '2026-03-02', spend: 50, results: 0, actions: 2 },
        { date: '2026-03-03', spend: 0, results: 0, actions: 0 },
      ],
      totals: { spend: 170.5, results: 5, actions: 2 },
    });
    expect(overview.currencies[1].totals).toEqual({ spend: 170.5, results: 5, actions: 0 });
    const { totals } = overview.month;
    expect(overview.month).toMatchObject({ from: '2026-03-01', to: '2026-03-03' });
    expect(totals).toMatchObject({
      actionsApplied: 2,
      byType: { pause: 1, increase_budget: 1 },
      currency: 'THB',
      budgetRaised: 20,
      budgetLowered: 0,
    });
    // The pause's estimate: the 7 days before's average daily spend (100.5 / 7) for the 2 days it stood.
    expect(totals.spendAvoided).toBeCloseTo((100.5 / 7) * 2, 6);
  });

  it.each([
    // 20:00 UTC on 3 March is 03:00 on the 4th in Bangkok: the accounts' today is a day ahead of the server's.
    ['Asia/Bangkok', '2026-03-03T20:00:00Z', '2026-03-04'],
    // 05:00 UTC on 4 March is 19:00 on the 3rd in Honolulu: a day behind.
    ['Pacific/Honolulu', '2026-03-04T05:00:00Z', '2026-03-03'],
  ])('ends an overview with no `to` on the accounts’ today (%s at %s)', async (timezone, instant, today) => {
    const before = t.clock.now;
    t.clock.now = new Date(instant);
    try {
      const session = await registerUser(t.app);
      await seedReportAccount(t, session.workspaceId, {
        name: 'Shop',
        currency: 'THB',
        timezone,
        days: [['c1', today, 42, 1, 0]],
      });
      const overview = (
        await t.app.inject({ method: 'GET', url: '/api/reports/overview?days=1', headers: session.auth })
      ).json().data;
      expect(overview).toMatchObject({ from: today, to: today, month: { from: `${today.slice(0, 8)}01`, to: today } });
      expect(overview.currencies[0].totals).toEqual({ spend: 42, results: 1, actions: 0 });
    } finally {
      t.clock.now = before;
    }
  });

  it('ends an overview with no `to` and no account on the server’s UTC day', async () => {
    const before = t.clock.now;
    t.clock.now = new Date('2026-03-03T20:00:00Z');
    try {
      const session = await registerUser(t.app);
      const overview = (
        await t.app.inject({ method: 'GET', url: '/api/reports/overview?days=1', headers: session.auth })
      ).json().data;
      expect(overview).toMatchObject({ from: '2026-03-03', to: '2026-03-03', accounts: 0 });
    } finally {
      t.clock.now = before;
    }
  });

  it('answers an empty overview for a workspace with no account', async () => {
    const session = await registerUser(t.app);
    const overview = (
      await t.app.inject({ method: 'GET', url: '/api/reports/overview?to=2026-03-31', headers: session.auth })
    ).json().data;
    expect(overview).toMatchObject({ from: '2026-03-02', to: '2026-03-31', accounts: 0, currencies: [] });
    expect(overview.month.totals).toMatchObject({ actionsApplied: 0, spendAvoided: 0 });
  });

  it('exports the table as XLSX: one row per campaign, numbers typed, Thai names intact', async () => {
    const session = await registerUser(t.app);
    const id = await seed(session.workspaceId, 'THB', 'ร้านค้า & ลูกค้า');
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/reports/export?format=xlsx&from=2026-03-01&to=2026-03-02&level=campaign&adAccountId=${id}`,
      headers: session.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    // Named by the last day it covers, as the PDF report is.
    expect(response.headers['content-disposition']).toBe('attachment; filename="adpilot-report-2026-03-02.xlsx"');
    const parts = unzip(response.rawPayload, crc32);
    expect(parts.get('xl/workbook.xml')).toContain('name="2026-03-01 to 2026-03-02"');
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    const text = (ref: string, value: string) =>
      `<c r="${ref}"${ref.endsWith('1') && ref.length === 2 ? ' s="1"' : ''} t="inlineStr"><is><t xml:space="preserve">${value}</t></is></c>`;
    expect(sheet).toContain(text('A1', 'Campaign'));
    expect(sheet).toContain(text('H1', 'ROAS'));
    // Campaign c1 spent most (150.5): first row; its account's Thai name is escaped and intact.
    expect(sheet).toContain(text('A2', 'Campaign c1'));
    expect(sheet).toContain(text('B2', 'ร้านค้า &amp; ลูกค้า'));
    expect(sheet).toContain(text('C2', 'THB'));
    expect(sheet).toContain('<c r="D2"><v>150.5</v></c><c r="E2"><v>4</v></c><c r="F2"><v>402</v></c>');
    expect(sheet).toContain('<c r="G2"><v>37.625</v></c>');
    // Campaign c2: one conversion for 20.
    expect(sheet).toContain(text('A3', 'Campaign c2'));
    expect(sheet).toContain('<c r="D3"><v>20</v></c><c r="E3"><v>1</v></c>');
    expect(sheet).not.toContain('r="A4"');
  });

  it('exports the table as CSV by default, with a byte-order mark, formulas defused', async () => {
    const session = await registerUser(t.app);
    await seed(session.workspaceId, 'THB', '=ร้าน,ไทย');
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/reports/export?from=2026-03-01&to=2026-03-02',
      headers: session.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/filename="adpilot-report-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(response.rawPayload.toString('utf8').slice(1)).toBe(
      'Ad account,Currency,Spend,Conversions,Conversion value,CPA,ROAS\r\n' +
        `"'=ร้าน,ไทย",THB,170.5,5,412,34.1,2.4164\r\n`,
    );
  });

  it('refuses an unknown export format and needs a signed-in user for the export', async () => {
    const session = await registerUser(t.app);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/reports/export?format=pdf&from=2026-03-01&to=2026-03-02',
      headers: session.auth,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('format');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/reports/export?from=2026-03-01&to=2026-03-02' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/reports?from=2026-03-01&to=2026-03-02' })).statusCode).toBe(
      401,
    );
  });
});
