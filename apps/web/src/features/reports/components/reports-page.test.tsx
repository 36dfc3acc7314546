import type { Report, ReportSeries } from '@adpilot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { localDay } from '../../../lib/format.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { stubMatchMedia } from '../../../test/match-media.ts';
import { mockApi, ok, renderApp, storeSession } from '../../../test/render-app.tsx';

function series(name: string, currency: string, spend: number, conversions: number, value: number): ReportSeries {
  const cpa = conversions > 0 ? spend / conversions : null;
  const roas = spend > 0 ? value / spend : null;
  return {
    id: `${name}-id`,
    level: 'account',
    name,
    adAccountId: '2b3a6f4e-5d1c-4c1e-9f0a-1d2e3f4a5b6c',
    adAccountName: name,
    currency,
    days: [
      { date: '2026-03-01', hasData: true, spend, conversions, conversionValue: value, cpa, roas },
      { date: '2026-03-02', hasData: true, spend: 0, conversions: 0, conversionValue: 0, cpa: null, roas: null },
    ],
    firstDataDay: '2026-03-01',
    totals: { spend, conversions, conversionValue: value, cpa, roas },
  };
}

/** What the page shows, with the non-breaking space Intl puts after a currency code read as the DOM reads it. */
const money = (value: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(value).replace(/\s/g, ' ');

const ACCOUNTS = [
  {
    id: '2b3a6f4e-5d1c-4c1e-9f0a-1d2e3f4a5b6c',
    facebook_account_name: 'Shop TH',
    currency: 'THB',
    sync_status: 'idle',
  },
];

const REPORT: Report = {
  from: '2026-03-01',
  to: '2026-03-02',
  level: 'account',
  series: [series('Shop TH', 'THB', 1500, 10, 6000), series('Shop JP', 'JPY', 900, 0, 0)],
};

describe('ReportsPage', () => {
  beforeEach(() => {
    storeSession();
    setLanguageChoice(null);
  });

  it('lists each series in its own currency and sorts by a clicked column', async () => {
    const calls: string[] = [];
    const fetchMock = mockApi({
      'GET /ad-accounts': ok(ACCOUNTS),
      'GET /reports': ok(REPORT),
      'GET /reports/schedules': ok([]),
    });
    renderApp('/reports');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const rows = () => within(table).getAllByRole('row').slice(1);
    expect(rows()[0]).toHaveTextContent('Shop TH');
    expect(rows()[0]).toHaveTextContent(money(1500, 'THB'));
    expect(rows()[0]).toHaveTextContent('4×');
    expect(rows()[1]).toHaveTextContent(money(900, 'JPY'));
    // CPA without conversions is undefined, not zero.
    expect(within(rows()[1]!).getAllByRole('cell')[4]).toHaveTextContent('—');

    // Spend in baht and in yen are never drawn on one axis: one currency at a time, the top spender's first.
    const currency = screen.getByRole('group', { name: 'Currency drawn' });
    expect(within(currency).getByRole('button', { name: 'THB' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(currency).getByRole('button', { name: 'JPY' })).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(
      within(screen.getByRole('group', { name: 'Metric shown' })).getByRole('button', { name: 'ROAS' }),
    );
    expect(screen.queryByRole('group', { name: 'Currency drawn' })).not.toBeInTheDocument();

    await userEvent.click(within(table).getByRole('button', { name: 'Spend' }));
    expect(rows()[0]).toHaveTextContent('Shop JP');
    for (const call of fetchMock.mock.calls) calls.push(String(call[0]));
    expect(
      calls.some((url) => /\/api\/reports\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}&level=account/.test(url)),
    ).toBe(true);
  });

  it('speaks Thai and explains a range that ends before it starts without asking the server', async () => {
    setLanguageChoice('th');
    const fetchMock = mockApi({
      'GET /ad-accounts': ok(ACCOUNTS),
      'GET /reports': ok(REPORT),
      'GET /reports/schedules': ok([]),
    });
    renderApp('/reports');
    expect(await screen.findByRole('heading', { level: 1, name: 'รายงาน' })).toBeInTheDocument();
    await screen.findByRole('table');
    const before = fetchMock.mock.calls.length;
    const from = screen.getByLabelText('ตั้งแต่');
    await userEvent.clear(from);
    await userEvent.type(from, '2026-03-10');
    const to = screen.getByLabelText('ถึง');
    await userEvent.clear(to);
    await userEvent.type(to, '2026-03-01');
    expect(await screen.findByRole('alert')).toHaveTextContent('วันที่เริ่มต้นต้องไม่อยู่หลังวันที่สิ้นสุด');
    const reportCalls = fetchMock.mock.calls
      .slice(before)
      .filter((call) => String(call[0]).includes('from=2026-03-10&to=2026-03-01'));
    expect(reportCalls).toHaveLength(0);
  });

  it('shows every figure of a series as a card on a phone, sorted by the chosen figure', async () => {
    stubMatchMedia(false, { narrow: true });
    mockApi({ 'GET /ad-accounts': ok(ACCOUNTS), 'GET /reports': ok(REPORT), 'GET /reports/schedules': ok([]) });
    renderApp('/reports');
    const list = await screen.findByRole('list', { name: 'Totals for the chosen range' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = () => within(list).getAllByRole('listitem');
    await waitFor(() => expect(cards()).toHaveLength(2));
    const [thai, japanese] = cards();
    expect(thai).toHaveTextContent('Shop TH');
    const figures: [term: string, value: string][] = [
      ['Spend', money(1500, 'THB')],
      ['Conversions', '10'],
      ['CPA', money(150, 'THB')],
      ['ROAS', '4×'],
    ];
    for (const [term, value] of figures)
      expect(within(thai!).getByText(term).nextElementSibling).toHaveTextContent(value);
    expect(within(japanese!).getByText('CPA').nextElementSibling).toHaveTextContent('—');

    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'conversions');
    expect(cards()[0]).toHaveTextContent('Shop TH');
    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'name');
    expect(cards()[0]).toHaveTextContent('Shop JP');
  });

  it("downloads the table as XLSX or CSV with the page's query, named by the local day, in Thai too", async () => {
    setLanguageChoice('th');
    const asked: URL[] = [];
    mockApi({
      'GET /ad-accounts': ok(ACCOUNTS),
      'GET /reports': ok(REPORT),
      'GET /reports/schedules': ok([]),
      'GET /reports/export': (_body, url) => {
        asked.push(url);
        return { body: 'file' };
      },
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:file'), revokeObjectURL: vi.fn() }));
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderApp('/reports');
    await userEvent.click(await screen.findByRole('button', { name: 'ส่งออก XLSX' }));
    await waitFor(() => expect(saved).toEqual([`adpilot-report-${localDay(0)}.xlsx`]));
    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({
      from: localDay(-29),
      to: localDay(0),
      level: 'account',
      format: 'xlsx',
    });
    await userEvent.click(screen.getByRole('button', { name: 'ส่งออก CSV' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]).toBe(`adpilot-report-${localDay(0)}.csv`);
    expect(asked[1]!.searchParams.get('format')).toBe('csv');
    click.mockRestore();
  });
});
