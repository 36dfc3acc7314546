import type { EntityDay, EntityHistoryItem } from '@adpilot/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chooseWorkspace } from '../../../lib/current-workspace.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { mockApi } from '../../../test/render-app.tsx';
import { accountWindow, buildDetail, buildRow, listBody } from '../test/fixtures.ts';
import { renderExplorer } from '../test/render-page.tsx';
import { EntityPage } from './entity-page.tsx';

const TEAM = '00000000-0000-4000-8000-00000000000b';
const CAMPAIGN = '00000000-0000-4000-8000-0000000000a1';

function day(date: string, hasData: boolean): EntityDay {
  const figure = hasData ? 100 : null;
  return {
    date,
    hasData,
    settling: false,
    spend: figure,
    results: hasData ? 2 : null,
    cpa: hasData ? 50 : null,
    roas: hasData ? 2 : null,
    ctr: null,
    cpc: null,
    cpm: null,
    frequency: null,
    impressions: figure,
    clicks: figure,
  };
}

const history: EntityHistoryItem[] = [
  {
    id: 'h1',
    kind: 'manual_action',
    at: '2026-11-28T03:00:00.000Z',
    date: '2026-11-28',
    type: 'pause',
    field: 'status',
    from: 'ACTIVE',
    to: 'PAUSED',
    status: 'applied',
    actor: { type: 'person', id: 'u1', name: 'Somchai Jaidee' },
    ruleId: null,
    runId: null,
    actionId: '00000000-0000-4000-8000-0000000000f1',
    revertible: true,
  },
  {
    id: 'h2',
    kind: 'external_change',
    at: '2026-11-27T03:00:00.000Z',
    date: '2026-11-27',
    type: null,
    field: 'daily_budget',
    from: 500,
    to: 800,
    status: null,
    actor: { type: 'external', id: null, name: null },
    ruleId: null,
    runId: null,
    actionId: null,
    revertible: false,
  },
];

function openEntity(role: 'viewer' | 'editor', days: EntityDay[]) {
  chooseWorkspace(TEAM);
  setLanguageChoice('en');
  const adSet = buildRow('Broad 18-65+', {
    level: 'adset',
    parents: { campaign: { id: CAMPAIGN, name: 'Summer sale' } },
  });
  const detail = buildDetail(adSet, {
    account: accountWindow({ from: '2026-11-25', to: '2026-11-30', firstDataDay: '2026-11-28' }),
    daily: days,
    history,
  });
  mockApi({
    'GET /workspaces': { body: { success: true, data: [{ id: TEAM, name: 'Acme Agency', role, personal: false }] } },
    [`GET /entities/${adSet.id}`]: { body: { success: true, data: detail } },
    'GET /entities': { body: listBody([]) },
  });
  return { ...renderExplorer(`/campaigns/${adSet.id}`, '/campaigns/:id', <EntityPage />), adSet };
}

describe('EntityPage', () => {
  it('shows where the entity sits, its figures and history, and "no data" before its first day, never zero', async () => {
    const days = ['2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29', '2026-11-30'].map((date) =>
      day(date, date >= '2026-11-28'),
    );
    openEntity('editor', days);
    expect(await screen.findByRole('heading', { level: 1, name: 'Broad 18-65+' })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Where it sits' });
    expect(within(crumbs).getByRole('link', { name: 'Summer sale' })).toHaveAttribute('href', `/campaigns/${CAMPAIGN}`);
    expect(within(crumbs).getByRole('link', { name: 'Bangkok Shop' })).toHaveAttribute(
      'href',
      expect.stringContaining('/campaigns?account='),
    );
    expect(screen.getByText(/No data for these days: the account's data begins Nov 28, 2026/)).toBeInTheDocument();
    expect(screen.getByText('Somchai Jaidee: Pause')).toBeInTheDocument();
    expect(screen.getByText('Someone outside AdPilot: daily budget changed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Revert' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
  });

  it('gives a viewer the page without a control, and says "no data" for a window without any', async () => {
    openEntity('viewer', [day('2026-11-25', false), day('2026-11-26', false)]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Broad 18-65+' })).toBeInTheDocument();
    expect(screen.getByText('No data for this period.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Pause|Resume|Budget…|Revert)$/ })).not.toBeInTheDocument();
  });
});
