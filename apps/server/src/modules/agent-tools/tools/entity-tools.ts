import {
  ENTITY_EFFECTIVE_STATUSES,
  ENTITY_LEVELS,
  ENTITY_METRIC_KEYS,
  ENTITY_SORT_COLUMNS,
  ENTITY_WINDOWS,
  calendarDate,
  type EntityListQuery,
  type EntityMetrics,
  type EntityRow,
} from '@adpilot/contracts';
import { z } from 'zod';
import type { EntitiesService } from '../../entities/index.ts';
import { defineTool, PAGE_DEFAULT, readOnly, ToolError, type ToolDefinition } from '../../../lib/tool-registry.ts';

export interface EntityToolServices {
  entities: Pick<EntitiesService, 'list' | 'detail'>;
}

const SORTS = ENTITY_SORT_COLUMNS.flatMap((column) => [column, `-${column}`]) as [string, ...string[]];
/** The longest window a tool reads day by day (an agent's context holds a quarter's days, not a year's). */
const TOOL_DAYS_MAX = 92;
const HISTORY_MAX = 20;
/**
 * The most rows a query_entities page holds: a row with both periods' figures weighs about 1.1 KiB, so a page of
 * the registry's 50 would pass the answer's 48 KiB ceiling and always be refused; 25 leaves room for long names.
 */
export const ENTITY_PAGE_MAX = 25;

const windowInput = {
  window: z.enum(ENTITY_WINDOWS).optional().describe('A window in each account’s own time zone (default last_7d)'),
  from: calendarDate().optional().describe('First local day (YYYY-MM-DD), with `to`; instead of `window`'),
  to: calendarDate().optional().describe('Last local day (YYYY-MM-DD), with `from`'),
};

function checkRange(input: { from?: string | undefined; to?: string | undefined }): void {
  if ((input.from === undefined) !== (input.to === undefined))
    throw new ToolError('invalid_input', 'Give both from and to, or neither');
  if (input.from && input.to) {
    if (input.from > input.to) throw new ToolError('invalid_input', 'from must not be after to');
    const days = (Date.parse(input.to) - Date.parse(input.from)) / 86_400_000 + 1;
    if (days > 400) throw new ToolError('invalid_input', 'A window covers at most 400 days');
  }
}

/** A row as an agent reads it: the figures and what AdPilot knows, without the web's extras. */
function compactRow(row: EntityRow) {
  return {
    id: row.id,
    externalId: row.externalId,
    adAccountId: row.adAccountId,
    level: row.level,
    name: row.name,
    /** Its page in AdPilot: what an answer cites the figures by. */
    href: `/campaigns/${row.id}`,
    campaign: row.parents.campaign?.name ?? null,
    adSet: row.parents.adSet?.name ?? null,
    status: row.effectiveStatus,
    budget: row.budget,
    currency: row.currency,
    metrics: row.metrics,
    previous: row.previous,
    rules: row.rules.map((rule) => rule.name),
    lastAction: row.lastAction
      ? { type: row.lastAction.type, status: row.lastAction.status, at: row.lastAction.at }
      : null,
    pendingProposals: row.pendingProposals,
    hold: row.hold,
    externalChange: row.externalChange,
    learning: row.learning,
  };
}

/** Each metric's value in both periods, the change and the change in percent (null where either is undefined). */
export function metricChanges(current: EntityMetrics, against: EntityMetrics) {
  return ENTITY_METRIC_KEYS.map((metric) => {
    const now = current[metric];
    const before = against[metric];
    const change = now === null || before === null ? null : now - before;
    const percent = change === null || before === null || before === 0 ? null : (change / Math.abs(before)) * 100;
    return { metric, current: now, against: before, change, percent };
  }).sort((a, b) => Math.abs(b.percent ?? 0) - Math.abs(a.percent ?? 0));
}

/** The explorer's tools (issue 28, ADR 0155): the same read model the Campaigns page reads, in pages. */
export function entityTools(services: EntityToolServices): ToolDefinition[] {
  return [
    defineTool({
      name: 'query_entities',
      title: 'Query campaigns, ad sets or ads',
      description: 'Campaigns, ad sets or ads with figures for a period and the one before, filtered, sorted, paged',
      scope: 'read',
      input: z.strictObject({
        level: z.enum(ENTITY_LEVELS).default('campaign'),
        adAccountId: z.uuid().optional().describe('One ad account (from list_ad_accounts); absent: all'),
        parentId: z.uuid().optional().describe('A campaign’s or ad set’s id: its ad sets or ads'),
        ...windowInput,
        sort: z.enum(SORTS).default('-spend').describe('A column, - for descending (e.g. -spend, cpa)'),
        status: z.array(z.enum(ENTITY_EFFECTIVE_STATUSES)).max(12).optional().describe('Effective statuses to keep'),
        q: z.string().max(200).optional().describe('Part of the name, any case'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(ENTITY_PAGE_MAX)
          .default(PAGE_DEFAULT)
          .describe(`Rows per page (1–${ENTITY_PAGE_MAX})`),
        cursor: z.string().max(200).optional().describe('The nextCursor of the previous page'),
      }),
      annotations: readOnly,
      run: async ({ scope }, input) => {
        checkRange(input);
        const query = { ...input, ...(input.status ? { status: input.status } : {}) } as EntityListQuery;
        const list = await services.entities.list(scope, query);
        return {
          rows: list.data.map(compactRow),
          totals: list.totals,
          windows: list.accounts.map((account) => ({
            adAccountId: account.adAccountId,
            from: account.from,
            to: account.to,
            previousFrom: account.previousFrom,
            previousTo: account.previousTo,
            settlingFrom: account.settlingFrom,
            firstDataDay: account.firstDataDay,
          })),
          total: list.total,
          nextCursor: list.nextCursor,
        };
      },
    }),
    defineTool({
      name: 'get_entity',
      title: 'Get a campaign, ad set or ad',
      description: 'One campaign, ad set or ad: budget holder, figures, daily figures over the window, history',
      scope: 'read',
      input: z.strictObject({ entityId: z.uuid().describe('The entity’s id (from query_entities)'), ...windowInput }),
      annotations: readOnly,
      run: async ({ scope }, input) => {
        checkRange(input);
        const { entityId, ...window } = input;
        const detail = await services.entities.detail(scope, entityId, window);
        if (detail.daily.length > TOOL_DAYS_MAX)
          throw new ToolError('too_large', `Ask for at most ${TOOL_DAYS_MAX} days of daily figures`);
        return {
          entity: compactRow(detail),
          account: detail.account,
          daily: detail.daily,
          history: detail.history.slice(0, HISTORY_MAX),
        };
      },
    }),
    defineTool({
      name: 'compare_periods',
      title: 'Compare two periods',
      description: 'What changed between two periods for an entity or an ad account, metric by metric, biggest first',
      scope: 'read',
      input: z.strictObject({
        entityId: z.uuid().optional().describe('An entity (from query_entities); or give adAccountId'),
        adAccountId: z.uuid().optional().describe('An ad account: its totals and the campaigns that moved most'),
        from: calendarDate().describe('First local day of the period'),
        to: calendarDate().describe('Last local day of the period'),
        againstFrom: calendarDate().optional().describe('First day to compare with (default: the days just before)'),
        againstTo: calendarDate().optional().describe('Last day to compare with'),
      }),
      annotations: readOnly,
      run: async ({ scope }, input) => {
        if ((input.entityId === undefined) === (input.adAccountId === undefined))
          throw new ToolError('invalid_input', 'Give an entityId or an adAccountId');
        checkRange(input);
        checkRange({ from: input.againstFrom, to: input.againstTo });
        const against =
          input.againstFrom && input.againstTo ? { from: input.againstFrom, to: input.againstTo } : undefined;
        if (input.entityId) {
          const current = await services.entities.detail(scope, input.entityId, { from: input.from, to: input.to });
          const before = against
            ? (await services.entities.detail(scope, input.entityId, against)).metrics
            : current.previous;
          return {
            entity: { id: current.id, name: current.name, level: current.level, currency: current.currency },
            period: { from: input.from, to: input.to },
            against: against ?? { from: current.account.previousFrom, to: current.account.previousTo },
            changes: metricChanges(current.metrics, before),
          };
        }
        const query = (window: { from: string; to: string }) =>
          ({
            level: 'campaign',
            adAccountId: input.adAccountId,
            ...window,
            sort: '-spend',
            limit: 500,
          }) as EntityListQuery;
        const current = await services.entities.list(scope, query({ from: input.from, to: input.to }));
        const before = against ? await services.entities.list(scope, query(against)) : undefined;
        const beforeOf = new Map((before?.data ?? []).map((row) => [row.id, row.metrics]));
        const window = current.accounts[0];
        const totals = current.totals[0];
        const beforeTotals = before ? before.totals[0]?.metrics : totals?.previous;
        const movers = current.data
          .map((row) => {
            const was = before ? beforeOf.get(row.id) : row.previous;
            return { id: row.id, name: row.name, spend: row.metrics.spend, was: was?.spend ?? 0, cpa: row.metrics.cpa };
          })
          .sort((a, b) => Math.abs(b.spend - b.was) - Math.abs(a.spend - a.was))
          .slice(0, 10);
        return {
          adAccountId: input.adAccountId,
          currency: totals?.currency ?? window?.currency ?? null,
          period: { from: input.from, to: input.to },
          against: against ?? (window ? { from: window.previousFrom, to: window.previousTo } : null),
          changes: totals && beforeTotals ? metricChanges(totals.metrics, beforeTotals) : [],
          campaignsThatMovedMost: movers,
        };
      },
    }),
  ];
}
