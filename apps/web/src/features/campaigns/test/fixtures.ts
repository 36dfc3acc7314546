import type { EntityAccountWindow, EntityDetail, EntityMetrics, EntityRow, EntityTotals } from '@adpilot/contracts';

export const ACCOUNT_THB = '00000000-0000-4000-8000-0000000000c1';
export const ACCOUNT_USD = '00000000-0000-4000-8000-0000000000c2';

let next = 1;
/** A fresh uuid-shaped id. */
export function id(): string {
  return `00000000-0000-4000-8000-${String(next++).padStart(12, '0')}`;
}

export function metrics(overrides: Partial<EntityMetrics> = {}): EntityMetrics {
  return {
    spend: 1000,
    results: 10,
    cpa: 100,
    roas: 2.5,
    ctr: 1.5,
    cpc: 5,
    cpm: 80,
    frequency: 1.2,
    impressions: 12500,
    clicks: 200,
    ...overrides,
  };
}

export function buildRow(name: string, overrides: Partial<EntityRow> = {}): EntityRow {
  const rowId = id();
  return {
    id: rowId,
    adAccountId: ACCOUNT_THB,
    level: 'campaign',
    externalId: String(120000 + next),
    name,
    parents: {},
    status: 'ACTIVE',
    effectiveStatus: 'ACTIVE',
    budget: { daily: 500, lifetime: null, holderLevel: 'campaign', holderId: rowId },
    currency: 'THB',
    metrics: metrics(),
    previous: metrics({ spend: 800, results: 10, cpa: 80 }),
    rules: [],
    lastAction: null,
    pendingProposals: 0,
    hold: null,
    externalChange: null,
    learning: null,
    editable: true,
    ...overrides,
  };
}

export function accountWindow(overrides: Partial<EntityAccountWindow> = {}): EntityAccountWindow {
  return {
    adAccountId: ACCOUNT_THB,
    name: 'Bangkok Shop',
    currency: 'THB',
    timezone: 'Asia/Bangkok',
    from: '2026-11-24',
    to: '2026-11-30',
    previousFrom: '2026-11-17',
    previousTo: '2026-11-23',
    today: '2026-12-01',
    settlingFrom: '2026-11-18',
    firstDataDay: '2026-09-01',
    readOnly: false,
    ...overrides,
  };
}

export function totals(currency: string, count: number, overrides: Partial<EntityMetrics> = {}): EntityTotals {
  return { currency, count, metrics: metrics(overrides), previous: metrics() };
}

/** The list's whole answer, as `GET /api/entities` sends it (the envelope's extras beside `data`). */
export function listBody(
  rows: EntityRow[],
  extra: Partial<{ totals: EntityTotals[]; nextCursor: string | null; accounts: EntityAccountWindow[] }> = {},
) {
  return {
    success: true,
    data: rows,
    totals: extra.totals ?? [totals('THB', rows.length)],
    accounts: extra.accounts ?? [accountWindow()],
    total: rows.length,
    nextCursor: extra.nextCursor ?? null,
  };
}

export function buildDetail(row: EntityRow, overrides: Partial<EntityDetail> = {}): EntityDetail {
  return { ...row, account: accountWindow(), daily: [], history: [], ...overrides };
}
