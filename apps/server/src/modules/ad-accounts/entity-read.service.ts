import { derivedMetrics, type EntityLevel, type EntitySortColumn } from '@adpilot/contracts';
import type { TenantTx } from '@adpilot/db';
import type {
  AccountWindow,
  EntityFilter,
  EntityPage,
  EntityReadRepository,
  EntityReadRow,
  FigureSums,
  WindowSums,
} from './entity-read.repository.ts';

export type { AccountWindow, EntityFilter, EntityPage, EntityReadRow, FigureSums } from './entity-read.repository.ts';

/** Windows' sums kept at once (each one level of one account over two windows: a few hundred KB at 5,000 ads). */
const CACHE_ENTRIES = 64;

const ZERO: FigureSums = { spend: 0, impressions: 0, reach: 0, clicks: 0, conversions: 0, conversionValue: 0 };

type SortValue = (row: EntityReadRow) => number | string | null;

const ratio = (f: (t: FigureSums & { linkClicks: number }) => number | null) => (row: EntityReadRow) =>
  f({ ...row.current, linkClicks: 0 });

/** A row's budget as the list sorts it: the holder's daily budget, else its lifetime one (minor units). */
function holderBudget(row: EntityReadRow): number | null {
  const has = (e: { dailyBudget: number | null; lifetimeBudget: number | null } | null) =>
    e !== null && (e.dailyBudget !== null || e.lifetimeBudget !== null);
  const holder =
    row.level === 'campaign'
      ? row
      : row.campaign && has(row.campaign)
        ? row.campaign
        : row.level === 'adset'
          ? row
          : row.adSet;
  return holder ? (holder.dailyBudget ?? holder.lifetimeBudget) : null;
}

const SORT_VALUES: Record<EntitySortColumn, SortValue> = {
  name: (row) => row.name.toLowerCase(),
  status: (row) => row.effectiveStatus,
  budget: holderBudget,
  spend: (row) => row.current.spend,
  results: (row) => row.current.conversions,
  cpa: ratio(derivedMetrics.cpa),
  roas: ratio(derivedMetrics.roas),
  ctr: ratio(derivedMetrics.ctr),
  cpc: ratio(derivedMetrics.cpc),
  cpm: ratio(derivedMetrics.cpm),
  frequency: ratio(derivedMetrics.frequency),
  impressions: (row) => row.current.impressions,
  clicks: (row) => row.current.clicks,
};

/** Sorted by the column (undefined values last in either direction), then name and id: stable pages. */
export function sortRows(rows: EntityReadRow[], column: EntitySortColumn, descending: boolean): EntityReadRow[] {
  const value = SORT_VALUES[column];
  const keyed = rows.map((row) => ({ row, key: value(row), name: row.name.toLowerCase() }));
  const sign = descending ? -1 : 1;
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) {
      if (a.key !== b.key) return a.key === null ? 1 : -1;
    } else if (a.key !== b.key) return (a.key < b.key ? -1 : 1) * sign;
    if (a.name !== b.name) return (a.name < b.name ? -1 : 1) * sign;
    return a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0;
  });
  return keyed.map((item) => item.row);
}

function add(into: FigureSums, sums: FigureSums): void {
  into.spend += sums.spend;
  into.impressions += sums.impressions;
  into.reach += sums.reach;
  into.clicks += sums.clicks;
  into.conversions += sums.conversions;
  into.conversionValue += sums.conversionValue;
}

/**
 * The explorer's read of the mirror (issue 28), owned here with the tables it reads, each method in the caller's
 * unit of work. A level's sums over an account's two windows are kept by the account's insights version (which
 * every write of its insights moves, in the same unit of work), so sorting, paging and filtering again read only
 * the entities; the figures are those of the database at that version, whatever process asks.
 */
export class EntityReadService {
  private readonly cache = new Map<string, WindowSums>();

  constructor(private readonly repository: EntityReadRepository) {}

  private async sumsOf(tx: TenantTx, level: EntityLevel, window: AccountWindow): Promise<WindowSums> {
    const key = [
      tx.workspaceId,
      window.adAccountId,
      window.version ?? 'none',
      level,
      window.from,
      window.to,
      window.previousFrom,
      window.previousTo,
    ].join('|');
    const cached = window.version === undefined ? undefined : this.cache.get(key);
    if (cached) {
      // Least recently used goes first.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const sums = await this.repository.sums(tx, level, window);
    if (window.version !== undefined) {
      this.cache.set(key, sums);
      while (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    }
    return sums;
  }

  /** The filtered entities with their two sums, the totals per currency of all of them, and one page in the sort. */
  async page(
    tx: TenantTx,
    filter: EntityFilter,
    sort: { column: EntitySortColumn; descending: boolean },
    page: { limit: number; offset: number } | null,
  ): Promise<EntityPage> {
    if (filter.windows.length === 0) return { rows: [], totals: [], total: 0 };
    // One statement after another: a unit of work is one connection.
    const bases = await this.repository.entities(tx, {
      ...filter,
      adAccountIds: filter.windows.map((w) => w.adAccountId),
    });
    const all = new Map<string, { current: FigureSums; previous: FigureSums }>();
    for (const window of filter.windows)
      for (const [key, value] of await this.sumsOf(tx, filter.level, window)) all.set(key, value);
    const totals = new Map<string, { count: number; current: FigureSums; previous: FigureSums }>();
    const rows = bases.map((base) => {
      const found = all.get(`${base.adAccountId}|${base.externalId}`);
      const { currency, ...entity } = base;
      const row: EntityReadRow = { ...entity, current: found?.current ?? ZERO, previous: found?.previous ?? ZERO };
      let total = totals.get(currency);
      if (!total) totals.set(currency, (total = { count: 0, current: { ...ZERO }, previous: { ...ZERO } }));
      total.count += 1;
      add(total.current, row.current);
      add(total.previous, row.previous);
      return row;
    });
    const sorted = sortRows(rows, sort.column, sort.descending);
    return {
      rows: page ? sorted.slice(page.offset, page.offset + page.limit) : sorted,
      totals: [...totals.entries()]
        .map(([currency, total]) => ({ currency, ...total }))
        .sort((a, b) => b.current.spend - a.current.spend || (a.currency < b.currency ? -1 : 1)),
      total: rows.length,
    };
  }

  find(tx: TenantTx, id: string): Promise<{ adAccountId: string; level: EntityLevel; externalId: string } | null> {
    return this.repository.find(tx, id);
  }

  days(
    tx: TenantTx,
    key: { adAccountId: string; level: EntityLevel; externalId: string },
    from: string,
    to: string,
  ): Promise<(FigureSums & { date: string })[]> {
    return this.repository.days(tx, key, from, to);
  }

  firstDataDays(tx: TenantTx, adAccountIds: readonly string[]): Promise<Map<string, string | null>> {
    return this.repository.firstDataDays(tx, adAccountIds);
  }
}
