import { ENTITY_METRIC_KEYS, type EntityMetricKey } from '@adpilot/contracts';

/*
 * The explorer's columns: the name is always shown; the rest are chosen by the reader and kept per user in this
 * browser (ADR 0107). Metric columns show the window's figure and its change against the period before.
 */

/** The figures' columns: the contracts' metric keys, in their order. */
export const METRIC_KEYS = ENTITY_METRIC_KEYS;
export type MetricKey = EntityMetricKey;

export const COLUMN_KEYS = ['status', 'budget', ...METRIC_KEYS] as const;
export type ColumnKey = (typeof COLUMN_KEYS)[number];

/** What a first visit shows: enough to decide on, narrow enough for a laptop. */
export const DEFAULT_COLUMNS: readonly ColumnKey[] = [
  'status',
  'budget',
  'spend',
  'results',
  'cpa',
  'roas',
  'ctr',
  'cpc',
];

export type MetricKind = 'money' | 'count' | 'ratio' | 'percent';

/** How a metric is written: money in the account's currency, counts whole, ratios and percents with decimals. */
export const METRIC_KIND: Record<MetricKey, MetricKind> = {
  spend: 'money',
  results: 'count',
  cpa: 'money',
  roas: 'ratio',
  ctr: 'percent',
  cpc: 'money',
  cpm: 'money',
  frequency: 'ratio',
  impressions: 'count',
  clicks: 'count',
};

/** Costs are better lower; everything else the advertiser wants higher (spend and frequency are neither). */
export const BETTER_WHEN: Record<MetricKey, 'higher' | 'lower' | 'neither'> = {
  spend: 'neither',
  results: 'higher',
  cpa: 'lower',
  roas: 'higher',
  ctr: 'higher',
  cpc: 'lower',
  cpm: 'lower',
  frequency: 'neither',
  impressions: 'higher',
  clicks: 'higher',
};

/** The sort keys the list answers: the name, the status, the budget, or any metric. */
export type SortKey = 'name' | 'status' | 'budget' | MetricKey;

export interface Sort {
  key: SortKey;
  descending: boolean;
}

export const DEFAULT_SORT: Sort = { key: 'spend', descending: true };

/** The API's `sort` parameter: `-spend`, `name`. */
export function sortParam(sort: Sort): string {
  return sort.descending ? `-${sort.key}` : sort.key;
}

/** The sort a `sort` parameter names (`-spend`), the default for anything else. */
export function parseSort(value: string | null): Sort {
  if (!value) return DEFAULT_SORT;
  const descending = value.startsWith('-');
  const key = descending ? value.slice(1) : value;
  const known: readonly string[] = ['name', 'status', 'budget', ...METRIC_KEYS];
  return known.includes(key) ? { key: key as SortKey, descending } : DEFAULT_SORT;
}

/** A new column sorts figures highest first and words A to Z; the same column again turns the order round. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key === key) return { key, descending: !current.descending };
  return { key, descending: key !== 'name' && key !== 'status' };
}

const STORAGE_PREFIX = 'explorer.columns';

export function columnsStorageKey(userId: string): string {
  return `${STORAGE_PREFIX}.${userId}`;
}

/** The columns this user chose, in the catalogue's order; the defaults when nothing (valid) is stored. */
export function readColumns(userId: string, storage: Storage = localStorage): ColumnKey[] {
  try {
    const raw = storage.getItem(columnsStorageKey(userId));
    if (!raw) return [...DEFAULT_COLUMNS];
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [...DEFAULT_COLUMNS];
    const chosen = new Set(parsed.filter((key): key is ColumnKey => (COLUMN_KEYS as readonly unknown[]).includes(key)));
    return COLUMN_KEYS.filter((key) => chosen.has(key));
  } catch {
    return [...DEFAULT_COLUMNS];
  }
}

export function storeColumns(userId: string, columns: readonly ColumnKey[], storage: Storage = localStorage): void {
  try {
    storage.setItem(columnsStorageKey(userId), JSON.stringify(COLUMN_KEYS.filter((key) => columns.includes(key))));
  } catch {
    // A full or refused storage keeps the choice for this visit only.
  }
}

/** The change from the previous period in percent, or null where either side gives no ratio (0 before, or none). */
export function changePercent(current: number | null, previous: number | null | undefined): number | null {
  if (current === null || previous === null || previous === undefined || previous === 0) return null;
  return ((current - previous) / Math.abs(previous)) * 100;
}

/** Whether a change reads as good, bad or neutral for the metric. */
export function changeTone(key: MetricKey, change: number | null): 'good' | 'bad' | 'neutral' {
  if (change === null || Math.abs(change) < 0.05 || BETTER_WHEN[key] === 'neither') return 'neutral';
  const up = change > 0;
  return (BETTER_WHEN[key] === 'higher') === up ? 'good' : 'bad';
}
