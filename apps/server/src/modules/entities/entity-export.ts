import {
  ENTITY_METRIC_KEYS,
  type EntityExportFormat,
  type EntityExportQuery,
  type EntityMetricKey,
  type EntityRow,
} from '@adpilot/contracts';
import type { TenantScope } from '@adpilot/db';
import type { EntitiesService } from './entities.service.ts';

/** A cell of the table: text, a number, or empty. */
export type XlsxCell = string | number | null;

/** The workbook writer (the reports' one, handed over by context.ts). */
export type XlsxWriter = (sheetName: string, rows: XlsxCell[][]) => Buffer;

export interface EntityExportFile {
  format: EntityExportFormat;
  fileName: string;
  body: Buffer;
}

const METRIC_HEADERS: Record<EntityMetricKey, string> = {
  spend: 'Spend',
  results: 'Results',
  cpa: 'CPA',
  roas: 'ROAS',
  ctr: 'CTR (%)',
  cpc: 'CPC',
  cpm: 'CPM',
  frequency: 'Frequency',
  impressions: 'Impressions',
  clicks: 'Clicks',
};

/**
 * One CSV field: quoted when it holds a separator, a quote or a line break; a text starting with `= + - @` (or
 * tab/CR) is prefixed with `'` so a spreadsheet never runs a name typed at Meta as a formula.
 */
function csvField(value: XlsxCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * The explorer's table as shown: its rows in their sort with the chosen columns, each with the previous period's
 * value beside it, then one total row per currency. Names are neutralised in CSV; XLSX cells are text, never formulas.
 */
export function entityTable(
  rows: readonly EntityRow[],
  totals: readonly { currency: string; metrics: EntityRow['metrics']; previous: EntityRow['metrics'] }[],
  columns: readonly EntityMetricKey[],
  accountNames: ReadonlyMap<string, string>,
): XlsxCell[][] {
  const header = [
    'Name',
    'Level',
    'Campaign',
    'Ad set',
    'Ad account',
    'Meta id',
    'Status',
    'Daily budget',
    'Lifetime budget',
    'Budget held by',
    'Currency',
    ...columns.flatMap((key) => [METRIC_HEADERS[key], `${METRIC_HEADERS[key]} (previous period)`]),
  ];
  const body = rows.map((row) => [
    row.name,
    row.level,
    row.parents.campaign?.name ?? null,
    row.parents.adSet?.name ?? null,
    accountNames.get(row.adAccountId) ?? null,
    row.externalId,
    row.effectiveStatus,
    row.budget.daily,
    row.budget.lifetime,
    row.budget.holderLevel,
    row.currency,
    ...columns.flatMap((key) => [row.metrics[key], row.previous[key]]),
  ]);
  const totalRows = totals.map((total) => [
    `Total (${total.currency})`,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    total.currency,
    ...columns.flatMap((key) => [total.metrics[key], total.previous[key]]),
  ]);
  return [header, ...body, ...totalRows];
}

/** The explorer's table as CSV or XLSX (every row of the query, not one page), named by the accounts' local date. */
export class EntityExports {
  constructor(
    private readonly entities: Pick<EntitiesService, 'all'>,
    private readonly xlsx: XlsxWriter,
  ) {}

  async export(scope: TenantScope, query: EntityExportQuery): Promise<EntityExportFile> {
    const { format, columns, ...list } = query;
    const result = await this.entities.all(scope, list);
    const names = new Map(result.accounts.map((account) => [account.adAccountId, account.name]));
    const table = entityTable(result.data, result.totals, columns?.length ? columns : ENTITY_METRIC_KEYS, names);
    // The local date of the accounts read (their today; the first account's when their zones differ).
    const day = result.accounts[0]?.today ?? new Date().toISOString().slice(0, 10);
    const fileName = `adpilot-${list.level}s-${day}.${format}`;
    const body =
      format === 'xlsx'
        ? this.xlsx(`${list.level}s ${day}`, table)
        : Buffer.from(`\uFEFF${table.map((row) => `${row.map(csvField).join(',')}\r\n`).join('')}`, 'utf8');
    return { format, fileName, body };
  }
}
