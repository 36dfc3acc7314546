import type { EntityActionResult, EntityRow } from '@adpilot/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chooseWorkspace } from '../../../lib/current-workspace.ts';
import { formatMoney } from '../../../lib/format.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { storeUser } from '../../../lib/session-storage.ts';
import { buildUser, mockApi } from '../../../test/render-app.tsx';
import { stubMatchMedia } from '../../../test/match-media.ts';
import { ACCOUNT_THB, ACCOUNT_USD, accountWindow, buildRow, listBody, metrics, totals } from '../test/fixtures.ts';
import { renderExplorer } from '../test/render-page.tsx';
import { CampaignsPage } from './campaigns-page.tsx';

const TEAM = '00000000-0000-4000-8000-00000000000b';
/** As the page shows it, with the no-break spaces the matchers see as spaces. */
const money = (value: number, currency: string) => formatMoney(value, currency, 'en').replace(/\s/g, ' ');

const ACCOUNTS = [
  { id: ACCOUNT_THB, facebook_account_name: 'Bangkok Shop', currency: 'THB', timezone: 'Asia/Bangkok' },
  { id: ACCOUNT_USD, facebook_account_name: 'New York Store', currency: 'USD', timezone: 'America/New_York' },
];

interface Seen {
  lists: URLSearchParams[];
  actions: { items: { entityId: string; type: string; percent?: number; amount?: number }[]; dryRun?: boolean }[];
}

function openExplorer(
  role: 'viewer' | 'editor',
  rows: EntityRow[],
  options: {
    list?: (query: URLSearchParams) => unknown;
    actions?: (body: Seen['actions'][number]) => EntityActionResult[];
  } = {},
) {
  chooseWorkspace(TEAM);
  setLanguageChoice('en');
  storeUser(buildUser({ id: 'user-1' }));
  const seen: Seen = { lists: [], actions: [] };
  mockApi({
    'GET /workspaces': { body: { success: true, data: [{ id: TEAM, name: 'Acme Agency', role, personal: false }] } },
    'GET /ad-accounts': { body: { success: true, data: ACCOUNTS } },
    'GET /entities': (_body, url) => {
      seen.lists.push(url.searchParams);
      return { body: options.list ? options.list(url.searchParams) : listBody(rows) };
    },
    'POST /entities/actions': (body) => {
      const request = body as Seen['actions'][number];
      seen.actions.push(request);
      return { body: { success: true, data: options.actions?.(request) ?? [] } };
    },
  });
  const rendered = renderExplorer('/campaigns', '/campaigns', <CampaignsPage />);
  return { ...rendered, seen };
}

function result(entity: EntityRow, outcome: EntityActionResult['outcome'], extra: Partial<EntityActionResult> = {}) {
  return {
    entityId: entity.id,
    outcome,
    targetId: entity.id,
    field: 'status',
    from: 'ACTIVE',
    to: 'PAUSED',
    currency: entity.currency,
    ...extra,
  } as EntityActionResult;
}

describe('CampaignsPage', () => {
  it('lists the rows with their figures in the account currency and a total per currency, never across them', async () => {
    const thb = buildRow('Summer sale', {
      metrics: metrics({ spend: 12345.5 }),
      rules: [{ id: 'r1', name: 'Stop loss' }],
    });
    const usd = buildRow('Brand US', { adAccountId: ACCOUNT_USD, currency: 'USD', metrics: metrics({ spend: 420 }) });
    openExplorer('editor', [thb, usd], {
      list: () =>
        listBody([thb, usd], {
          totals: [totals('THB', 1, { spend: 12345.5 }), totals('USD', 1, { spend: 420 })],
          accounts: [accountWindow(), accountWindow({ adAccountId: ACCOUNT_USD, timezone: 'America/New_York' })],
        }),
    });
    const row = (await screen.findByRole('rowheader', { name: /Summer sale/ })).closest('tr')!;
    expect(row).toHaveTextContent(money(12345.5, 'THB'));
    expect(row).toHaveTextContent('Watched by Stop loss');
    // 1,000 against 800 before: up 25%.
    expect(within(row).getByText('Up 25% on the previous 7 days')).toBeInTheDocument();
    const usdRow = screen.getByRole('rowheader', { name: /Brand US/ }).closest('tr')!;
    expect(usdRow).toHaveTextContent(money(420, 'USD'));
    const thbTotal = screen.getByRole('rowheader', { name: /Total THB/ }).closest('tr')!;
    const usdTotal = screen.getByRole('rowheader', { name: /Total USD/ }).closest('tr')!;
    expect(thbTotal).toHaveTextContent(money(12345.5, 'THB'));
    expect(usdTotal).toHaveTextContent(money(420, 'USD'));
    expect(
      screen.getByText('Totals per currency: amounts in different currencies are never added together.'),
    ).toBeInTheDocument();
    expect(screen.getByText("Days in each account's own time zone", { exact: false })).toBeInTheDocument();
    expect(screen.getByText('The last 7 days shown may still be revised by Meta.')).toBeInTheDocument();
  });

  it('shows a viewer the figures without a control that changes anything, and says why', async () => {
    openExplorer('viewer', [buildRow('Summer sale')]);
    await screen.findByRole('rowheader', { name: /Summer sale/ });
    expect(await screen.findByRole('note')).toHaveTextContent('Pausing, resuming and budget changes need an editor.');
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Pause|Resume|Change the budget)/ })).not.toBeInTheDocument();
  });

  it('pauses a selection after one confirmation showing each from → to, then says what became of each', async () => {
    const a = buildRow('Broad 18-65+', { level: 'adset', parents: { campaign: { id: 'c1', name: 'Summer sale' } } });
    const b = buildRow('Broad 18-65+', { level: 'adset', parents: { campaign: { id: 'c2', name: 'Winter sale' } } });
    const { user, seen } = openExplorer('editor', [a, b], {
      actions: (body) =>
        body.dryRun
          ? [result(a, 'would_apply'), result(b, 'would_apply')]
          : [
              result(a, 'applied', { actionId: '00000000-0000-4000-8000-0000000000f1' }),
              result(b, 'refused', { code: 'AD_ACCOUNT_READ_ONLY' }),
            ],
    });
    await screen.findAllByRole('rowheader', { name: /Broad 18-65\+/ });
    // Two ad sets of one name read apart by their campaigns.
    expect(screen.getByText('Summer sale')).toBeInTheDocument();
    expect(screen.getByText('Winter sale')).toBeInTheDocument();
    for (const box of screen.getAllByRole('checkbox', { name: 'Select Broad 18-65+' })) await user.click(box);
    const bar = screen.getByRole('region', { name: 'Selected rows' });
    expect(bar).toHaveTextContent('2 selected');
    await user.click(within(bar).getByRole('button', { name: 'Pause' }));

    const dialog = await screen.findByRole('dialog', { name: 'Pause these 2?' });
    expect(await within(dialog).findAllByText('Active')).toHaveLength(2);
    expect(within(dialog).getAllByText('Paused')).toHaveLength(2);
    expect(seen.actions).toHaveLength(1);
    expect(seen.actions[0]).toEqual({
      dryRun: true,
      items: [
        { entityId: a.id, type: 'pause' },
        { entityId: b.id, type: 'pause' },
      ],
    });
    await user.click(within(dialog).getByRole('button', { name: 'Pause now' }));

    const outcome = await screen.findByRole('dialog', { name: 'What happened' });
    expect(seen.actions[1]).toEqual({
      items: [
        { entityId: a.id, type: 'pause' },
        { entityId: b.id, type: 'pause' },
      ],
    });
    expect(within(outcome).getByRole('status')).toHaveTextContent('1 done, 1 refused');
    expect(outcome).toHaveTextContent('Refused: the account is connected read-only');
  });

  it('raises budgets by a percent and shows the new budgets the server worked out before writing', async () => {
    const a = buildRow('Prospecting', {
      budget: { daily: 1000, lifetime: null, holderLevel: 'campaign', holderId: null },
    });
    a.budget.holderId = a.id;
    const { user, seen } = openExplorer('editor', [a], {
      actions: (body) => [
        result(a, body.dryRun ? 'would_apply' : 'applied', { field: 'daily_budget', from: 1000, to: 1200 }),
      ],
    });
    await user.click(await screen.findByRole('button', { name: 'Change the budget of Prospecting' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change this budget?' });
    await user.click(within(dialog).getByRole('button', { name: 'Review the change' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Enter a number of 0 or more.');
    expect(seen.actions).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Percent (%)'), '20');
    await user.click(within(dialog).getByRole('button', { name: 'Review the change' }));
    expect(await within(dialog).findByText(money(1200, 'THB'))).toBeInTheDocument();
    expect(dialog).toHaveTextContent(money(1000, 'THB'));
    expect(seen.actions[0]).toEqual({
      dryRun: true,
      items: [{ entityId: a.id, type: 'increase_budget', percent: 20 }],
    });
    await user.click(within(dialog).getByRole('button', { name: 'Apply the change' }));
    expect(await screen.findByRole('dialog', { name: 'What happened' })).toHaveTextContent('1 done, 0 refused');
    expect(seen.actions[1]).toEqual({ items: [{ entityId: a.id, type: 'increase_budget', percent: 20 }] });
  });

  it('keeps the chosen columns for this user and asks the list again by a column clicked to sort', async () => {
    const { user, seen } = openExplorer('editor', [buildRow('Summer sale')]);
    await screen.findByRole('rowheader', { name: /Summer sale/ });
    expect(screen.getByRole('columnheader', { name: 'CPA' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Clicks' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const dialog = await screen.findByRole('dialog', { name: 'Columns to show' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'CPA' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Clicks' }));
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('columnheader', { name: 'CPA' })).not.toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('explorer.columns.user-1') ?? '[]')).toContain('clicks');
    expect(JSON.parse(localStorage.getItem('explorer.columns.user-1') ?? '[]')).not.toContain('cpa');

    await user.click(screen.getByRole('button', { name: 'Clicks' }));
    await screen.findByText(
      (_, element) =>
        element?.getAttribute('data-testid') === 'address' && /sort=-clicks/.test(element.textContent ?? ''),
    );
    expect(seen.lists.at(-1)?.get('sort')).toBe('-clicks');
    expect(seen.lists.at(-1)?.get('window')).toBe('last_7d');
  });

  it('expands a campaign into its ad sets, asked for by parent', async () => {
    const campaign = buildRow('Summer sale');
    const adSet = buildRow('Lookalike 1%', {
      level: 'adset',
      parents: { campaign: { id: campaign.id, name: 'Summer sale' } },
    });
    const { user, seen } = openExplorer('viewer', [campaign], {
      list: (query) => listBody(query.get('parentId') === campaign.id ? [adSet] : [campaign]),
    });
    await user.click(await screen.findByRole('button', { name: 'Show what Summer sale holds' }));
    expect(await screen.findByRole('rowheader', { name: /Lookalike 1%/ })).toBeInTheDocument();
    const childQuery = seen.lists.find((query) => query.get('parentId') === campaign.id);
    expect(childQuery?.get('level')).toBe('adset');
    expect(screen.getByRole('button', { name: 'Hide what Summer sale holds' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });

  it('draws only the rows in view of 5,000', async () => {
    const rows = Array.from({ length: 5000 }, (_, index) => buildRow(`Ad ${index + 1}`, { level: 'ad' }));
    openExplorer('viewer', rows);
    await screen.findByRole('rowheader', { name: /^Ad 1$/ });
    const drawn = screen.getAllByRole('rowheader').filter((cell) => /^Ad \d+/.test(cell.textContent ?? ''));
    expect(drawn.length).toBeLessThan(60);
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', String(5000 + 2));
    expect(screen.getByText('5,000 rows', { selector: 'p' })).toBeInTheDocument();
    // 5,000 rows are a 5 MB answer to parse: the time goes there, not to drawing.
  }, 40_000);

  it('becomes cards with the key figures on a phone, without the table', async () => {
    stubMatchMedia(false, { narrow: true });
    openExplorer('editor', [buildRow('Summer sale', { metrics: metrics({ spend: 999 }) })]);
    const card = await screen.findByRole('article', { name: 'Summer sale' });
    expect(card).toHaveTextContent(money(999, 'THB'));
    expect(card).toHaveTextContent('ROAS');
    expect(within(card).getByRole('button', { name: 'Pause Summer sale' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
