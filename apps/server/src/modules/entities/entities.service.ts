import { createHash } from 'node:crypto';
import {
  addDays,
  derivedMetrics,
  ENTITY_MESSAGES,
  ENTITY_WINDOW_DEFAULT,
  localDate,
  META_WRITE_SCOPE,
  toMajorUnits,
  type EntityAccountWindow,
  type EntityBudget,
  type EntityDay,
  type EntityDetail,
  type EntityDetailQuery,
  type EntityHistoryItem,
  type EntityLevel,
  type EntityList,
  type EntityListQuery,
  type EntityMetrics,
  type EntityRow,
  type EntitySortColumn,
  type EntityWindow,
} from '@adpilot/contracts';
import type { AdAccountRow, TenantScope, TenantTx, Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import {
  type AdMirrorService,
  MIRROR_REVISED_DAYS,
  type AccountWindow,
  type EntityFilter,
  type EntityReadRow,
  type EntityReadService,
  type FigureSums,
} from '../ad-accounts/index.ts';
import type { EntityKnowledge, EntityKnowledgeService, KnownEntity, EntityHistoryService } from '../rules/index.ts';

export interface EntitiesDeps {
  transactions: Transactions;
  mirror: Pick<AdMirrorService, 'accounts'>;
  read: EntityReadService;
  knowledge: Pick<EntityKnowledgeService, 'knowledgeIn' | 'recentBudgetChangesIn'>;
  history: Pick<EntityHistoryService, 'historyIn'>;
  now: () => Date;
}

/** The list's query without its page: what the export and the agent tools ask too. */
export type EntityQuery = Omit<EntityListQuery, 'limit' | 'cursor'>;

const PRESET_DAYS: Record<Exclude<EntityWindow, 'today' | 'yesterday'>, number> = {
  last_7d: 7,
  last_14d: 14,
  last_30d: 30,
  last_90d: 90,
};

function dayCount(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * The window in an account's own time zone: `from`/`to` as given (local dates), else the preset counted from the
 * account's today; the previous window is the same number of days just before it.
 */
export function accountWindow(
  account: Pick<AdAccountRow, 'id' | 'timezone'>,
  query: { from?: string | undefined; to?: string | undefined; window?: EntityWindow | undefined },
  now: Date,
): AccountWindow & { today: string } {
  const today = localDate(account.timezone, now.getTime());
  let from: string;
  let to: string;
  if (query.from && query.to) [from, to] = [query.from, query.to];
  else {
    const preset = query.window ?? ENTITY_WINDOW_DEFAULT;
    if (preset === 'today') [from, to] = [today, today];
    else if (preset === 'yesterday') [from, to] = [addDays(today, -1), addDays(today, -1)];
    else [from, to] = [addDays(today, -PRESET_DAYS[preset]), addDays(today, -1)];
  }
  const length = dayCount(from, to);
  return {
    adAccountId: account.id,
    from,
    to,
    previousFrom: addDays(from, -length),
    previousTo: addDays(from, -1),
    today,
  };
}

/** The figures of the contract from summed days: ratios null where undefined (derivedMetrics). */
export function metricsOf(sums: FigureSums): EntityMetrics {
  const totals = { ...sums, linkClicks: 0 };
  return {
    spend: sums.spend,
    results: sums.conversions,
    cpa: derivedMetrics.cpa(totals),
    roas: derivedMetrics.roas(totals),
    ctr: derivedMetrics.ctr(totals),
    cpc: derivedMetrics.cpc(totals),
    cpm: derivedMetrics.cpm(totals),
    frequency: derivedMetrics.frequency(totals),
    impressions: sums.impressions,
    clicks: sums.clicks,
  };
}

/** The budget that governs a row: its own, its campaign's under campaign budget, or an ad's ad set's (major units). */
export function budgetOf(row: EntityReadRow, currency: string): EntityBudget {
  const major = (minor: number | null) => (minor === null ? null : toMajorUnits(minor, currency));
  const has = (e: { dailyBudget: number | null; lifetimeBudget: number | null } | null) =>
    e !== null && (e.dailyBudget !== null || e.lifetimeBudget !== null);
  const of = (
    e: { dailyBudget: number | null; lifetimeBudget: number | null },
    level: 'campaign' | 'adset',
    id: string,
  ) => ({
    daily: major(e.dailyBudget),
    lifetime: major(e.lifetimeBudget),
    holderLevel: level,
    holderId: id,
  });
  if (row.level === 'campaign')
    return has(row)
      ? of(row, 'campaign', row.id)
      : { daily: null, lifetime: null, holderLevel: 'adset', holderId: null };
  if (row.campaign && has(row.campaign)) return of(row.campaign, 'campaign', row.campaign.id);
  if (row.level === 'adset') return has(row) ? of(row, 'adset', row.id) : empty();
  if (row.adSet && has(row.adSet)) return of(row.adSet, 'adset', row.adSet.id);
  return empty();
  function empty(): EntityBudget {
    return { daily: null, lifetime: null, holderLevel: null, holderId: null };
  }
}

const LEARNING = new Set(['LEARNING', 'SUCCESS', 'FAIL']);

interface Cursor {
  o: number;
  f: string;
}

function fingerprint(query: EntityQuery): string {
  const { level, adAccountId, parentId, from, to, window, sort, status, q } = query;
  return createHash('sha256')
    .update(JSON.stringify([level, adAccountId, parentId, from, to, window, sort, status, q]))
    .digest('base64url')
    .slice(0, 12);
}

function readCursor(cursor: string | undefined, query: EntityQuery): number {
  if (cursor === undefined) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Cursor;
    if (Number.isInteger(parsed.o) && parsed.o >= 0 && parsed.f === fingerprint(query)) return parsed.o;
  } catch {
    // falls through to the refusal
  }
  throw new AppError('VALIDATION_ERROR', ENTITY_MESSAGES.cursorInvalid, 400, [
    { field: 'cursor', message: ENTITY_MESSAGES.cursorInvalid },
  ]);
}

function writeCursor(offset: number, query: EntityQuery): string {
  return Buffer.from(JSON.stringify({ o: offset, f: fingerprint(query) } satisfies Cursor)).toString('base64url');
}

export function parseSort(sort: string): { column: EntitySortColumn; descending: boolean } {
  return sort.startsWith('-')
    ? { column: sort.slice(1) as EntitySortColumn, descending: true }
    : { column: sort as EntitySortColumn, descending: false };
}

const CHILD_LEVELS: Record<EntityLevel, readonly EntityLevel[]> = {
  campaign: ['adset', 'ad'],
  adset: ['ad'],
  ad: [],
};

/**
 * The explorer's read model (issue 28): one query service over the mirror for campaigns, ad sets and ads with their
 * figures over each account's window and the previous one, totals per currency (never summed across currencies),
 * and what AdPilot knows per row. The routes, the export, the AI assistant and the agent tools all call it.
 */
export class EntitiesService {
  constructor(private readonly deps: EntitiesDeps) {}

  /** A page of the list, as `GET /api/entities` answers it. */
  list(scope: TenantScope, query: EntityListQuery): Promise<EntityList> {
    return this.deps.transactions.tenant(scope, (tx) => this.listIn(tx, query));
  }

  /** The same, in the caller's unit of work (the agent tools, the AI assistant). */
  async listIn(tx: TenantTx, query: EntityListQuery): Promise<EntityList> {
    const { limit, cursor, ...rest } = query;
    const offset = readCursor(cursor, rest);
    const result = await this.read(tx, rest, { limit, offset });
    const next = offset + result.data.length < result.total ? writeCursor(offset + result.data.length, rest) : null;
    return { ...result, nextCursor: next };
  }

  /** Every row of the filter, in its sort (the export). */
  all(scope: TenantScope, query: EntityQuery): Promise<Omit<EntityList, 'nextCursor'>> {
    return this.deps.transactions.tenant(scope, (tx) => this.read(tx, query, null));
  }

  private async read(
    tx: TenantTx,
    query: EntityQuery,
    page: { limit: number; offset: number } | null,
  ): Promise<Omit<EntityList, 'nextCursor'>> {
    const now = this.deps.now();
    let accounts = await this.deps.mirror.accounts(tx, query.adAccountId ? [query.adAccountId] : []);
    if (query.adAccountId && accounts.length === 0) throw AppError.notFound(ENTITY_MESSAGES.adAccountId);
    let parent: EntityFilter['parent'];
    if (query.parentId) {
      const found = await this.deps.read.find(tx, query.parentId);
      if (!found || found.level === 'ad' || !CHILD_LEVELS[found.level].includes(query.level))
        throw AppError.notFound(ENTITY_MESSAGES.parentId);
      parent = { adAccountId: found.adAccountId, level: found.level, externalId: found.externalId };
      accounts = accounts.filter((account) => account.id === found.adAccountId);
    }
    const windows = accounts.map((account) => ({
      ...accountWindow(account, query, now),
      version: account.insightsVersion,
    }));
    const filter: EntityFilter = {
      level: query.level,
      windows,
      statuses: query.status ?? [],
      ...(parent ? { parent } : {}),
      ...(query.q ? { q: query.q } : {}),
    };
    const result = await this.deps.read.page(tx, filter, parseSort(query.sort), page);
    const firstDays = await this.deps.read.firstDataDays(
      tx,
      accounts.map((account) => account.id),
    );
    const byId = new Map(accounts.map((account) => [account.id, account]));
    const knowledge = await this.deps.knowledge.knowledgeIn(tx, result.rows.map(knownOf));
    return {
      data: result.rows.map((row) => this.toRow(row, byId.get(row.adAccountId)!, knowledge)),
      totals: result.totals.map((total) => ({
        currency: total.currency,
        count: total.count,
        metrics: metricsOf(total.current),
        previous: metricsOf(total.previous),
      })),
      accounts: windows.map((window) => accountWindowOf(byId.get(window.adAccountId)!, window, firstDays)),
      total: result.total,
    };
  }

  /** One entity with every day of its window and its history (`GET /api/entities/:id`). */
  detail(scope: TenantScope, id: string, query: EntityDetailQuery): Promise<EntityDetail> {
    return this.deps.transactions.tenant(scope, (tx) => this.detailIn(tx, id, query));
  }

  async detailIn(tx: TenantTx, id: string, query: EntityDetailQuery): Promise<EntityDetail> {
    const found = await this.deps.read.find(tx, id);
    if (!found) throw AppError.notFound(ENTITY_MESSAGES.notFound);
    const [account] = await this.deps.mirror.accounts(tx, [found.adAccountId]);
    if (!account) throw AppError.notFound(ENTITY_MESSAGES.notFound);
    const window = { ...accountWindow(account, query, this.deps.now()), version: account.insightsVersion };
    const filter: EntityFilter = { level: found.level, windows: [window], statuses: [], ids: [id] };
    // A deleted entity is still shown on its own page: the status filter names every status.
    const page = await this.deps.read.page(tx, filter, { column: 'name', descending: false }, null);
    const firstDays = await this.deps.read.firstDataDays(tx, [account.id]);
    const days = await this.deps.read.days(tx, found, window.from, window.to);
    let row = page.rows[0];
    if (!row) {
      const deleted = await this.deps.read.page(
        tx,
        { ...filter, statuses: ['DELETED'] },
        { column: 'name', descending: false },
        null,
      );
      row = deleted.rows[0];
    }
    if (!row) throw AppError.notFound(ENTITY_MESSAGES.notFound);
    const knowledge = await this.deps.knowledge.knowledgeIn(tx, [knownOf(row)]);
    const accountView = accountWindowOf(account, window, firstDays);
    const history: EntityHistoryItem[] = await this.deps.history.historyIn(tx, {
      adAccountId: account.id,
      externalId: row.externalId,
      timezone: account.timezone,
      currency: account.currency,
    });
    if (row.externalChangeAt)
      history.push({
        id: `external:${row.externalChangeAt}`,
        kind: 'external_change',
        at: row.externalChangeAt,
        date: localDate(account.timezone, Date.parse(row.externalChangeAt)),
        type: null,
        field: null,
        from: null,
        to: null,
        status: null,
        actor: { type: 'external', id: null, name: row.externalChangeBy },
        ruleId: null,
        runId: null,
        actionId: null,
        revertible: false,
      });
    history.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
    return {
      ...this.toRow(row, account, knowledge),
      account: accountView,
      daily: dailySeries(days, window.from, window.to, accountView),
      history,
    };
  }

  private toRow(row: EntityReadRow, account: AdAccountRow, knowledge: Map<string, EntityKnowledge>): EntityRow {
    const known = knowledge.get(`${row.adAccountId}|${row.externalId}`);
    const readOnly = account.missingScopes.includes(META_WRITE_SCOPE) || account.needsReauth;
    return {
      id: row.id,
      adAccountId: row.adAccountId,
      level: row.level,
      externalId: row.externalId,
      name: row.name,
      parents: {
        ...(row.campaign ? { campaign: { id: row.campaign.id, name: row.campaign.name } } : {}),
        ...(row.adSet ? { adSet: { id: row.adSet.id, name: row.adSet.name } } : {}),
      },
      status: row.status,
      effectiveStatus: row.effectiveStatus,
      budget: budgetOf(row, account.currency),
      currency: account.currency,
      metrics: metricsOf(row.current),
      previous: metricsOf(row.previous),
      rules: known?.rules ?? [],
      lastAction: known?.lastAction ?? null,
      pendingProposals: known?.pendingProposals ?? 0,
      hold: known?.hold ?? null,
      externalChange: row.externalChangeAt ? { at: row.externalChangeAt, by: row.externalChangeBy } : null,
      learning:
        row.level !== 'campaign' && row.learningStatus && LEARNING.has(row.learningStatus)
          ? (row.learningStatus as 'LEARNING' | 'SUCCESS' | 'FAIL')
          : null,
      editable: !readOnly && row.status !== 'ARCHIVED' && row.status !== 'DELETED',
    };
  }
}

function knownOf(row: EntityReadRow): KnownEntity {
  return {
    adAccountId: row.adAccountId,
    level: row.level,
    externalId: row.externalId,
    name: row.name,
    status: row.status,
  };
}

function accountWindowOf(
  account: AdAccountRow,
  window: AccountWindow & { today: string },
  firstDays: Map<string, string | null>,
): EntityAccountWindow {
  return {
    adAccountId: account.id,
    name: account.facebookAccountName,
    currency: account.currency,
    timezone: account.timezone,
    from: window.from,
    to: window.to,
    previousFrom: window.previousFrom,
    previousTo: window.previousTo,
    today: window.today,
    settlingFrom: addDays(window.today, -MIRROR_REVISED_DAYS),
    firstDataDay: firstDays.get(account.id) ?? null,
    readOnly: account.missingScopes.includes(META_WRITE_SCOPE),
  };
}

/**
 * Every day of from…to: before the account's first day with data "no data" (figures null, never zero); from it
 * on, the entity's figures, zero on a day it did not deliver; days Meta may still revise marked settling.
 */
export function dailySeries(
  days: readonly (FigureSums & { date: string })[],
  from: string,
  to: string,
  account: Pick<EntityAccountWindow, 'firstDataDay' | 'settlingFrom'>,
): EntityDay[] {
  const byDate = new Map(days.map((day) => [day.date, day]));
  const out: EntityDay[] = [];
  const empty = { spend: 0, impressions: 0, reach: 0, clicks: 0, conversions: 0, conversionValue: 0 };
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const settling = date >= account.settlingFrom;
    if (account.firstDataDay === null || date < account.firstDataDay) {
      out.push({
        date,
        hasData: false,
        settling,
        spend: null,
        results: null,
        cpa: null,
        roas: null,
        ctr: null,
        cpc: null,
        cpm: null,
        frequency: null,
        impressions: null,
        clicks: null,
      });
      continue;
    }
    out.push({ date, hasData: true, settling, ...metricsOf(byDate.get(date) ?? empty) });
  }
  return out;
}
