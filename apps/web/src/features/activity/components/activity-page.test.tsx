import type { ActivityLog } from '@adpilot/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseWorkspace } from '../../../lib/current-workspace.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildActivityLog as log } from '../../../test/activity-log.ts';
import { stubMatchMedia } from '../../../test/match-media.ts';
import { buildSession, fail, mockApi, ok, renderApp, storeSession } from '../../../test/render-app.tsx';

const page = (logs: ActivityLog[], p: number, total: number, asOf: number) => ({
  logs,
  pagination: { page: p, limit: 50, total, totalPages: Math.ceil(total / 50), asOf },
});

/** A stand-in for EventSource: the test opens, feeds and breaks it. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: MessageEvent<string>) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  open() {
    act(() => this.onopen?.());
  }
  send(entry: ActivityLog) {
    act(() =>
      this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(entry), lastEventId: String(entry.seq) })),
    );
  }
  fail() {
    act(() => this.onerror?.());
  }
  close() {
    this.closed = true;
  }
}

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function signIn() {
  const session = buildSession();
  storeSession(session);
  return session;
}

describe('ActivityPage', () => {
  it('lists entries rendered from their codes, and pages keep the previous page while the next loads', async () => {
    const session = signIn();
    const first = Array.from({ length: 50 }, () => log());
    first[0] = log({
      level: 'error',
      type: 'sync',
      code: 'sync_failed',
      params: { accountName: 'Shop', reason: 'unexpected' },
    });
    let releaseSecond: (() => void) | undefined;
    const asked: string[] = [];
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /logs': (_body, url) => {
        asked.push(url.search);
        if (url.searchParams.get('page') === '2')
          return new Promise((resolve) => {
            releaseSecond = () => resolve(ok(page([log({ description: 'second page entry' })], 2, 51, 500)));
          });
        return ok(page(first, 1, 51, 500));
      },
    });
    const user = userEvent.setup();
    renderApp('/activity');
    expect(await screen.findByText('Sync of Shop failed: an unexpected error occurred')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2 · 51 entries')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    // While page 2 loads, page 1 stays on screen.
    expect(screen.getByText('Sync of Shop failed: an unexpected error occurred')).toBeInTheDocument();
    await waitFor(() => expect(releaseSecond).toBeDefined());
    releaseSecond!();
    expect(await screen.findByText('second page entry')).toBeInTheDocument();
    // Page 2 is pinned to what page 1 saw.
    expect(asked.at(-1)).toContain('asOf=500');
    expect(asked.at(-1)).toContain('limit=50');
  });

  it('gives every change entry its from → to, and a detail view with why and the way to the rule', async () => {
    const session = signIn();
    const ruleId = '00000000-0000-4000-8000-0000000000a1';
    const raised = log({
      level: 'success',
      type: 'rule_action',
      code: 'rule_action_applied',
      params: { ruleName: 'Scale winners', action: 'increase_budget', target: 'Broad 18-65+' },
      ruleId,
      adAccountId: '00000000-0000-4000-8000-0000000000b1',
      metadata: {
        change: { field: 'daily_budget', from: 1000, to: 1200, fromMinor: 100000, toMinor: 120000, currency: 'THB' },
        explanation: {
          conditions: {
            kind: 'group',
            match: 'all',
            result: 'held',
            items: [
              {
                kind: 'condition',
                metric: 'roas',
                window: 'last_3d',
                includeToday: false,
                operator: 'gt',
                value: 5.2,
                compareTo: 4,
                result: 'held',
              },
            ],
          },
        },
      },
    });
    const proposed = log({
      level: 'info',
      type: 'rule_action',
      code: 'rule_action_proposed',
      params: { ruleName: 'Trim', action: 'pause', target: 'Old ad' },
      metadata: { change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' } },
    });
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /logs': ok(page([raised, proposed], 1, 2, 500)),
    });
    const user = userEvent.setup();
    renderApp('/activity');
    const baht = (value: number) =>
      new Intl.NumberFormat('en', { style: 'currency', currency: 'THB', maximumFractionDigits: 2 })
        .format(value)
        .replace(/\s/g, ' ');
    expect(await screen.findByText(`daily budget: ${baht(1000)} → ${baht(1200)}`)).toBeInTheDocument();
    expect(screen.getByText('status: Active → Paused')).toBeInTheDocument();
    // Info and success are told apart by colour as by word.
    const dot = (text: string) =>
      screen.getByText(text).closest('tr')?.querySelector('[aria-hidden="true"].rounded-full')?.className ?? '';
    expect(dot(`daily budget: ${baht(1000)} → ${baht(1200)}`)).toContain('bg-green-500');
    expect(dot('status: Active → Paused')).toContain('bg-blue-500');

    await user.click(screen.getAllByRole('link', { name: 'Details' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Activity entry' });
    expect(dialog).toHaveTextContent('Rule “Scale winners”: raise the budget on “Broad 18-65+”');
    expect(dialog).toHaveTextContent(`daily budget: ${baht(1000)} → ${baht(1200)}`);
    expect(dialog).toHaveTextContent('ROAS (the last 3 days) is 5.2, greater than 4');
    expect(within(dialog).getByRole('link', { name: 'The rule and its run history' })).toHaveAttribute(
      'href',
      `/rules/${ruleId}`,
    );
    expect(within(dialog).getByRole('link', { name: 'Ad accounts' })).toHaveAttribute('href', '/ad-accounts');
  });

  it("gives a reverted budget boost its from → to, its window, and says Meta's schedule was removed", async () => {
    const session = signIn();
    const reverted = log({
      level: 'info',
      type: 'rule_action',
      code: 'rule_action_reverted',
      params: { ruleName: 'Evening boost', action: 'boost_budget', target: 'Broad 18-65+' },
      metadata: {
        change: {
          field: 'budget_schedule',
          budgetField: 'daily_budget',
          from: 40,
          to: 60,
          fromMinor: 4000,
          toMinor: 6000,
          currency: 'USD',
          timeStart: '2026-12-03T23:00:00.000Z',
          timeEnd: '2026-12-04T03:00:00.000Z',
          scheduleId: '23850000000001',
        },
      },
    });
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /logs': ok(page([reverted], 1, 1, 500)),
    });
    renderApp('/activity');
    expect(
      await screen.findByText(
        /^daily budget \$40\.00 → \$60\.00 from .+ to .+\. The budget schedule was removed on Meta$/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(/boost the budget for a window/)).toBeInTheDocument();
  });

  it('sends the filters, combined', async () => {
    const session = signIn();
    const asked: URLSearchParams[] = [];
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /logs': (_body, url) => {
        asked.push(url.searchParams);
        return ok(page([], 1, 0, 0));
      },
    });
    const user = userEvent.setup();
    renderApp('/activity');
    expect(await screen.findByText('No activity matches these filters.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Level'), 'error');
    await user.selectOptions(screen.getByLabelText('Type'), 'rule_action');
    await user.type(screen.getByLabelText('Search'), 'budget');
    await waitFor(() => expect(asked.at(-1)?.get('search')).toBe('budget'));
    const last = asked.at(-1)!;
    expect(last.get('level')).toBe('error');
    expect(last.get('type')).toBe('rule_action');
    expect(last.get('page')).toBe('1');
  });

  it('Live shows new entries without a reload, says "Connection error" on failure and reconnects from the last id', async () => {
    const session = signIn();
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /logs': ok(page([log({ description: 'old entry' })], 1, 1, 41)),
    });
    const user = userEvent.setup();
    renderApp('/activity');
    await screen.findByText('old entry');
    await user.click(screen.getByRole('button', { name: 'Live' }));
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const first = FakeEventSource.instances[0]!;
    // The stream starts after the list's snapshot, with the token in the query.
    expect(first.url).toContain('lastEventId=41');
    expect(first.url).toContain(`token=${session.token}`);
    first.open();
    expect(screen.getByText('Live: new entries appear as they happen')).toBeInTheDocument();
    first.send(log({ seq: 42, description: 'live entry <b>1</b>' }));
    expect(await screen.findByText('live entry <b>1</b>')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 1 · 2 entries')).toBeInTheDocument();
    first.fail();
    expect(await screen.findByText('Connection error')).toBeInTheDocument();
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2), { timeout: 4_000 });
    expect(first.closed).toBe(true);
    expect(FakeEventSource.instances[1]!.url).toContain('lastEventId=42');
    FakeEventSource.instances[1]!.open();
    expect(await screen.findByText('Live: new entries appear as they happen')).toBeInTheDocument();
  });

  it('signs the tab out instead of reconnecting when the stream ended with the session', async () => {
    const session = signIn();
    let meCalls = 0;
    mockApi({
      // The session was ended elsewhere (a sign-out, a password reset) after the page loaded.
      'GET /auth/me': () => (++meCalls === 1 ? ok(session.user) : fail(401, 'TOKEN_EXPIRED', 'Session has ended')),
      'POST /auth/refresh': fail(401, 'UNAUTHORIZED', 'Session has ended, please sign in again'),
      'GET /ad-accounts': ok([]),
      'GET /logs': ok(page([log({ description: 'old entry' })], 1, 1, 41)),
    });
    const user = userEvent.setup();
    renderApp('/activity');
    await screen.findByText('old entry');
    await user.click(screen.getByRole('button', { name: 'Live' }));
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    FakeEventSource.instances[0]!.open();
    FakeEventSource.instances[0]!.fail();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'), { timeout: 4_000 });
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('deletes the selected entries and clears the log, each after a confirmation', async () => {
    const session = signIn();
    const entries = [log({ description: 'keep' }), log({ description: 'drop me' })];
    let deleted: unknown;
    let cleared: unknown;
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /logs': ok(page(entries, 1, 2, 200)),
      'DELETE /logs': (body) => {
        deleted = body;
        return ok({ deletedCount: 1 });
      },
      'POST /logs/clear': (body) => {
        cleared = body;
        return ok({ deletedCount: 2 });
      },
    });
    const user = userEvent.setup();
    renderApp('/activity');
    const row = (await screen.findByText('drop me')).closest('tr')!;
    await user.click(within(row).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Delete selected (1)' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Delete 1 selected entries?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toEqual({ ids: [entries[1]!._id] }));
    expect(await screen.findByText('1 entries deleted')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear log' }));
    const confirm = await screen.findByRole('dialog');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(cleared).toBeUndefined();
    await user.click(screen.getByRole('button', { name: 'Clear log' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(cleared).toEqual({}));
  });

  it.each(['viewer', 'editor', 'admin'] as const)(
    'offers neither deleting nor clearing to an %s: the log is the owner’s to clear (ADR 0094)',
    async (role) => {
      const session = signIn();
      const workspace = { id: '00000000-0000-4000-8000-00000000c1e0', name: 'Client', role, personal: false };
      chooseWorkspace(workspace.id);
      mockApi({
        'GET /auth/me': ok(session.user),
        'GET /workspaces': ok([workspace]),
        'GET /ad-accounts': ok([]),
        'GET /logs': ok(page([log({ description: 'an entry' })], 1, 1, 10)),
      });
      renderApp('/activity');
      await screen.findByText('an entry');
      expect(screen.queryByRole('button', { name: 'Clear log' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Delete selected/ })).not.toBeInTheDocument();
    },
  );

  it('shows each entry as a card on a phone: time, level, type and the whole description', async () => {
    stubMatchMedia(false, { narrow: true });
    const session = signIn();
    const long = `Rule “Scale winners”: raise the budget on “Summer sale” ${'and a long tail of words '.repeat(6)}`;
    const entries = [
      log({ level: 'warning', type: 'rule_action', description: long, createdAt: '2026-11-26T12:04:03Z' }),
      log({ description: 'second' }),
    ];
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /logs': ok(page(entries, 1, 2, 200)),
    });
    const user = userEvent.setup();
    renderApp('/activity');
    const list = await screen.findByRole('list', { name: 'Activity entries' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const first = cards[0]!;
    expect(first).toHaveTextContent(long.trim());
    expect(first).toHaveTextContent('Warning');
    expect(first).toHaveTextContent('Rule action');
    expect(
      within(first)
        .getByText(/Nov 26, 2026/)
        .closest('time'),
    ).toHaveAttribute('datetime', '2026-11-26T12:04:03Z');
    // Selecting works on cards as in the table.
    expect(screen.getByRole('button', { name: 'Delete selected (0)' })).toBeDisabled();
    await user.click(within(first).getByRole('checkbox', { name: 'Select' }));
    expect(screen.getByRole('button', { name: 'Delete selected (1)' })).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    expect(screen.getByRole('button', { name: 'Delete selected (2)' })).toBeEnabled();
  });

  it('writes a card in Thai with the Buddhist-era year', async () => {
    stubMatchMedia(false, { narrow: true });
    setLanguageChoice('th');
    const session = signIn();
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /logs': ok(page([log({ type: 'sync', createdAt: '2026-11-26T12:04:03Z' })], 1, 1, 200)),
    });
    renderApp('/activity');
    const card = within(await screen.findByRole('list', { name: 'รายการกิจกรรม' })).getByRole('listitem');
    expect(card).toHaveTextContent(/26 พ\.ย\. 2569/);
    expect(card).toHaveTextContent('การซิงค์');
  });

  it('names the person who made an entry, in the table and on a phone, in English and Thai', async () => {
    const session = signIn();
    const entries = [
      log({ type: 'rule_change', description: 'Rule changed', actor: { id: session.user.id, name: 'Somchai Jaidee' } }),
      log({ type: 'sync', description: 'Synced' }),
    ];
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /logs': ok(page(entries, 1, 2, 200)),
    });
    const { unmount } = renderApp('/activity');
    const table = await screen.findByRole('table');
    const [, signed, system] = within(table).getAllByRole('row');
    expect(within(signed!).getByText('by Somchai Jaidee')).toBeInTheDocument();
    expect(system).not.toHaveTextContent(/\bby\b/);
    unmount();

    stubMatchMedia(false, { narrow: true });
    setLanguageChoice('th');
    renderApp('/activity');
    const cards = within(await screen.findByRole('list', { name: 'รายการกิจกรรม' })).getAllByRole('listitem');
    expect(within(cards[0]!).getByText('โดย Somchai Jaidee')).toBeInTheDocument();
    expect(cards[1]).not.toHaveTextContent('โดย');
  });

  it('refuses a From day after the To day in the form, in Reports’ words, without asking the server', async () => {
    const session = signIn();
    const asked: URLSearchParams[] = [];
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /ad-accounts': ok([]),
      'GET /logs': (_body, url) => {
        asked.push(url.searchParams);
        const description = url.searchParams.has('to') ? 'within the chosen days' : 'in range';
        return ok(page([log({ description })], 1, 1, 200));
      },
    });
    renderApp('/activity');
    await screen.findByText('in range');
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    fireEvent.change(from, { target: { value: '2026-11-20' } });
    fireEvent.change(to, { target: { value: '2026-11-10' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('The start date must not be after the end date');
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(to).toHaveAccessibleDescription('The start date must not be after the end date');
    expect(screen.queryByText('in range')).not.toBeInTheDocument();
    expect(screen.queryByText(/could not be loaded/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    expect(asked.some((query) => query.has('to'))).toBe(false);

    fireEvent.change(to, { target: { value: '2026-11-25' } });
    await waitFor(() => expect(asked.some((query) => query.has('to'))).toBe(true));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(from).not.toHaveAttribute('aria-invalid');
    expect(await screen.findByText('within the chosen days')).toBeInTheDocument();
  });
});
