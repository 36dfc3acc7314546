import type { LogStats, ReportOverview, RuleImpactTotals } from '@adpilot/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { localDay } from '../../../lib/format.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildActivityLog as log } from '../../../test/activity-log.ts';
import { buildSession, mockApi, ok, renderApp, storeSession } from '../../../test/render-app.tsx';

const stats = (total: number): LogStats => ({
  total,
  byLevel: { error: 0, warning: 0, info: total, success: 0 },
  byType: {},
  actionsPerDay: [],
});

const monthTotals = (over: Partial<RuleImpactTotals> = {}): RuleImpactTotals => ({
  actionsApplied: 0,
  byType: {},
  currency: null,
  budgetRaised: 0,
  budgetLowered: 0,
  spendAvoided: 0,
  compared: 0,
  before: { cpa: null, roas: null },
  after: { cpa: null, roas: null },
  ...over,
});

const EMPTY_OVERVIEW: ReportOverview = {
  from: '2026-10-28',
  to: '2026-11-26',
  accounts: 0,
  currencies: [],
  month: { from: '2026-11-01', to: '2026-11-26', totals: monthTotals() },
};

/** Money as the page shows it, the non-breaking space Intl may put after a symbol read as a space. */
const money = (value: number, currency: string, language = 'en') =>
  new Intl.NumberFormat(language, { style: 'currency', currency, maximumFractionDigits: 2 })
    .format(value)
    .replace(/\s/g, ' ');

const emptyLogs = { logs: [], pagination: { page: 1, limit: 5, total: 0, totalPages: 0, asOf: 0 } };

describe('DashboardPage', () => {
  it('greets the user and shows the summary, the empty activity and the wired quick actions', async () => {
    const session = buildSession();
    storeSession(session);
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /rules': ok([]),
      'GET /logs/stats': ok(stats(0)),
      'GET /logs': ok(emptyLogs),
      'GET /reports/overview': ok(EMPTY_OVERVIEW),
    });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: `Welcome back, ${session.user.name}!` })).toBeInTheDocument();
    expect(screen.getByText("Here's an overview of your ad automation performance.")).toBeInTheDocument();
    for (const label of ['Active Rules', 'Actions Today', 'Total Actions']) {
      expect(screen.getByText(label)).toBeInTheDocument();
    }
    expect(await screen.findByText('No recent activity to display.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Connect Ad Account/ })).toHaveAttribute('href', '/ad-accounts?connect=1');
    expect(screen.getByRole('link', { name: /Create Rule/ })).toHaveAttribute('href', '/rules/new');
    expect(screen.getByRole('link', { name: /View Reports/ })).toHaveAttribute('href', '/reports');
  });

  it('shows the real figures: active rules, accounts, entries since local midnight and the true total', async () => {
    const session = buildSession();
    storeSession(session);
    let todayFrom: string | null = null;
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([{ id: 'a' }, { id: 'b' }]),
      'GET /rules': ok([{ isActive: true }, { isActive: false }, { isActive: true }, { isActive: true }]),
      'GET /logs/stats': (_body, url) => {
        if (url.searchParams.get('from')) todayFrom = url.searchParams.get('from');
        return ok(stats(url.searchParams.get('from') ? 7 : 1234));
      },
      'GET /logs': ok(emptyLogs),
      'GET /reports/overview': ok(EMPTY_OVERVIEW),
    });
    renderApp('/dashboard');
    const value = async (label: string) => {
      await screen.findByText('1,234');
      const element = screen.getAllByText(label).find((node) => node.tagName === 'P');
      return element?.nextElementSibling?.textContent;
    };
    expect(await value('Total Actions')).toBe('1,234');
    expect(await value('Actions Today')).toBe('7');
    expect(await value('Active Rules')).toBe('3');
    expect(await value('Ad Accounts')).toBe('2');
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    expect(todayFrom).toBe(midnight.toISOString());
  });

  it('lists the 5 newest entries from their codes, with a dot per level and the description as text', async () => {
    const session = buildSession();
    storeSession(session);
    const logs = [
      log({ level: 'error', type: 'sync', code: 'sync_failed', params: { accountName: 'Shop', reason: 'meta_error' } }),
      log({ level: 'warning', description: '<img src=x onerror=alert(1)>' }),
      log({
        level: 'success',
        type: 'connection',
        code: 'account_connected',
        params: { accountName: 'A', accountId: '1' },
      }),
    ];
    let asked = '';
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /rules': ok([]),
      'GET /logs/stats': ok(stats(3)),
      'GET /logs': (_body, url) => {
        asked = url.search;
        return ok({ logs, pagination: { page: 1, limit: 5, total: 3, totalPages: 1, asOf: 3 } });
      },
      'GET /reports/overview': ok(EMPTY_OVERVIEW),
    });
    renderApp('/dashboard');
    const list = await screen.findByRole('list', { name: 'Recent Activity' });
    expect(asked).toContain('limit=5');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual([
      'Sync of Shop failed: Facebook refused the request',
      '<img src=x onerror=alert(1)>',
      'Connected ad account A (1)',
    ]);
    expect(list.querySelector('img')).toBeNull();
    const dots = items.map((item) => item.querySelector('[data-level]')?.className ?? '');
    expect(dots[0]).toContain('bg-red-500');
    expect(dots[1]).toContain('bg-yellow-500');
    expect(dots[2]).toContain('bg-green-500');
  });

  it('names the person who made a recent entry beside its time', async () => {
    const session = buildSession();
    storeSession(session);
    const logs = [
      log({ description: 'Paused by hand', actor: { id: session.user.id, name: 'Somchai Jaidee' } }),
      log({ description: 'Synced' }),
    ];
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /rules': ok([]),
      'GET /logs/stats': ok(stats(2)),
      'GET /logs': ok({ logs, pagination: { page: 1, limit: 5, total: 2, totalPages: 1, asOf: 2 } }),
      'GET /reports/overview': ok(EMPTY_OVERVIEW),
    });
    renderApp('/dashboard');
    const items = within(await screen.findByRole('list', { name: 'Recent Activity' })).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(/ · by Somchai Jaidee$/);
    expect(items[1]).not.toHaveTextContent('by');
  });

  it('says what to do next without an account or a rule: connect one, create one from a template', async () => {
    const session = buildSession();
    storeSession(session);
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /rules': ok([]),
      'GET /logs/stats': ok(stats(0)),
      'GET /logs': ok(emptyLogs),
      'GET /reports/overview': ok(EMPTY_OVERVIEW),
    });
    renderApp('/dashboard');
    expect(await screen.findByText('Connect an ad account to see how your ads are doing.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect an ad account' })).toHaveAttribute(
      'href',
      '/ad-accounts?connect=1',
    );
    expect(await screen.findByRole('link', { name: 'Create one from a template' })).toHaveAttribute(
      'href',
      '/rules/new',
    );
  });

  it('says nothing waits for a decision when rules have neither acted nor proposed this month', async () => {
    const session = buildSession();
    storeSession(session);
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([{ id: 'a' }]),
      'GET /rules': ok([{ isActive: true }]),
      'GET /logs/stats': ok(stats(0)),
      'GET /logs': ok(emptyLogs),
      'GET /proposals': ok([]),
      'GET /reports/overview': ok({ ...EMPTY_OVERVIEW, accounts: 1 }),
    });
    renderApp('/dashboard');
    const card = (await screen.findByRole('heading', { name: 'What your rules did this month' })).parentElement!
      .parentElement!;
    expect(await within(card).findByText('Your rules have not acted this month yet.')).toBeInTheDocument();
    expect(await within(card).findByText('Nothing waits for your decision.')).toBeInTheDocument();
    expect(within(card).getByText('Proposals waiting').nextElementSibling).toHaveTextContent('0');
    expect(within(card).queryByRole('link')).not.toBeInTheDocument();
  });

  it("counts today and this month as the ad account does, not the browser: a day's actions are this month's", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 20:00 UTC on 30 November is 03:00 on 1 December in Bangkok, where the rules just acted.
    vi.setSystemTime(new Date('2026-11-30T20:00:00.000Z'));
    try {
      const session = buildSession();
      storeSession(session);
      const asked: URL[] = [];
      let todayFrom: string | null = null;
      mockApi({
        'GET /auth/me': ok(session.user),
        'GET /ad-accounts': ok([
          { id: 'a', timezone: 'Asia/Bangkok' },
          { id: 'b', timezone: 'America/New_York' },
        ]),
        'GET /rules': ok([{ isActive: true }]),
        'GET /logs/stats': (_body, url) => {
          if (url.searchParams.get('from')) todayFrom = url.searchParams.get('from');
          return ok(stats(4));
        },
        'GET /logs': ok(emptyLogs),
        'GET /reports/overview': (_body, url) => {
          asked.push(url);
          return ok({
            ...EMPTY_OVERVIEW,
            accounts: 2,
            month: {
              from: '2026-12-01',
              to: '2026-12-01',
              totals: monthTotals({ actionsApplied: 4, byType: { increase_budget: 4 }, currency: 'THB' }),
            },
          });
        },
      });
      renderApp('/dashboard');
      expect((await screen.findByText('Actions applied')).nextElementSibling).toHaveTextContent('4');
      expect(screen.queryByText('Your rules have not acted this month yet.')).not.toBeInTheDocument();
      expect(asked).toHaveLength(1);
      expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({ days: '30', to: '2026-12-01' });
      // Actions Today from Bangkok's midnight (17:00 UTC), not the browser's.
      expect(todayFrom).toBe('2026-11-30T17:00:00.000Z');
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows 30 days in the main currency with one request, and what the rules did this month, in Thai', async () => {
    setLanguageChoice('th');
    const session = buildSession();
    storeSession(session);
    const day = (date: string, spend: number, results: number, actions: number) => ({ date, spend, results, actions });
    const overview: ReportOverview = {
      ...EMPTY_OVERVIEW,
      accounts: 2,
      currencies: [
        {
          currency: 'THB',
          days: [day('2026-11-25', 1000, 4, 0), day('2026-11-26', 500, 1, 2)],
          totals: { spend: 1500, results: 5, actions: 2 },
        },
        { currency: 'USD', days: [day('2026-11-25', 10, 1, 0)], totals: { spend: 10, results: 1, actions: 0 } },
      ],
      month: {
        ...EMPTY_OVERVIEW.month,
        totals: monthTotals({
          actionsApplied: 3,
          byType: { pause: 2, increase_budget: 1 },
          currency: 'THB',
          spendAvoided: 1234.5,
          budgetRaised: 200,
          budgetLowered: 0,
        }),
      },
    };
    const asked: URL[] = [];
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([{ id: 'a' }, { id: 'b' }]),
      'GET /rules': ok([{ isActive: true }]),
      'GET /logs/stats': ok(stats(0)),
      'GET /logs': ok(emptyLogs),
      'GET /proposals': ok([{ id: 'p1' }, { id: 'p2' }]),
      'GET /reports/overview': (_body, url) => {
        asked.push(url);
        return ok(overview);
      },
    });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: '30 วันที่ผ่านมา' })).toBeInTheDocument();
    expect(await screen.findByText(money(1500, 'THB', 'th'))).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: /ค่าใช้จ่ายและผลลัพธ์รายวันเป็น THB/ })).toBeInTheDocument();
    expect(screen.getByText(/บัญชีที่ใช้ USD ไม่อยู่ในแผนภูมินี้/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'สิ่งที่กฎของคุณทำในเดือนนี้' })).toBeInTheDocument();
    const value = (term: string) => screen.getByText(term).nextElementSibling?.textContent;
    expect(value('การดำเนินการที่ทำแล้ว')).toBe('3');
    expect(value('ค่าใช้จ่ายที่เลี่ยงได้จากการหยุดชั่วคราว')).toBe(money(1234.5, 'THB', 'th'));
    expect(value('เพิ่มงบประมาณรวม')).toBe(money(200, 'THB', 'th'));
    // The Inbox's pending proposals, counted from the shell's own query, with the way to decide them.
    expect(await screen.findByText('ข้อเสนอที่รออนุมัติ')).toBeInTheDocument();
    expect(value('ข้อเสนอที่รออนุมัติ')).toBe('2');
    expect(screen.getByRole('link', { name: 'ไปอนุมัติที่กล่องอนุมัติ' })).toHaveAttribute('href', '/inbox');
    expect(asked).toHaveLength(1);
    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({ days: '30', to: localDay(0) });
    setLanguageChoice(null);
  });
});
