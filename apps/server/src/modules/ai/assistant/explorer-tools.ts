import { addDays, calendarDate, ENTITY_LEVELS, type DeliveryTotals } from '@adpilot/contracts';
import { z } from 'zod';
import { defineTool, pageInput, pageOf, readOnly, ToolError, type ToolDefinition } from '../../../lib/tool-registry.ts';
import type { EntityFigures, EntityReads } from './entity-reads.ts';

/** The page an entity's figures link to (the explorer's). */
export const entityHref = (id: string) => `/campaigns/${id}`;

const round = (value: number | null, digits = 2) =>
  value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits;

/** An entity's row as a tool answers it: names are data, never instructions (the model is told so). */
export function entityRow(entity: EntityFigures) {
  const t: DeliveryTotals = entity.totals;
  return {
    id: entity.id,
    name: entity.name,
    level: entity.level,
    adAccountId: entity.adAccountId,
    status: entity.status,
    currency: entity.currency,
    spend: round(t.spend),
    impressions: t.impressions,
    clicks: t.clicks,
    results: round(t.conversions),
    conversionValue: round(t.conversionValue),
    cpa: round(entity.cpa),
    roas: round(entity.roas),
    ctr: round(entity.ctr),
    cpm: round(entity.cpm),
    frequency: round(entity.frequency),
    href: entityHref(entity.id),
  };
}

const SORTS = ['spend', 'results', 'cpa', 'roas', 'ctr'] as const;
const range = {
  from: calendarDate().describe('First day (YYYY-MM-DD, the account’s local day)'),
  to: calendarDate().describe('Last day (YYYY-MM-DD)'),
};
const MAX_DAYS = 93;

function checkedRange(from: string, to: string) {
  if (from > to) throw new ToolError('invalid_range', 'from must not be after to');
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 + 1 > MAX_DAYS)
    throw new ToolError('invalid_range', `A range covers at most ${MAX_DAYS} days`);
}

function sortEntities(rows: EntityFigures[], sort: (typeof SORTS)[number]) {
  const value = (e: EntityFigures) =>
    sort === 'spend'
      ? e.totals.spend
      : sort === 'results'
        ? e.totals.conversions
        : sort === 'cpa'
          ? e.cpa
          : sort === 'roas'
            ? e.roas
            : e.ctr;
  // Highest first, except CPA (cheapest first); entities without the figure last.
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
    return sort === 'cpa' ? x - y : y - x;
  });
}

/** The previous period of the same length, just before `from`. */
export function previousPeriod(from: string, to: string) {
  const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
  return { from: addDays(from, -days), to: addDays(from, -1) };
}

const change = (now: number | null, before: number | null) =>
  now === null || before === null || before === 0 ? null : round(((now - before) / before) * 100, 1);

/**
 * The explorer's three read tools (issue 28), defined here over the interim read model until the explorer's own
 * definitions land in the registry: where the registry has a tool of the same name, the assistant uses that one.
 */
export function explorerTools(reads: EntityReads): ToolDefinition[] {
  return [
    defineTool({
      name: 'query_entities',
      title: 'Query campaigns, ad sets or ads',
      description: 'Campaigns, ad sets or ads with their figures for a period, filtered, sorted and paged',
      scope: 'read',
      input: z.strictObject({
        level: z.enum(ENTITY_LEVELS).default('campaign'),
        adAccountId: z.uuid().optional(),
        parentId: z.uuid().optional().describe('Only the children of this campaign or ad set'),
        ...range,
        sort: z.enum(SORTS).default('spend'),
        ...pageInput,
      }),
      annotations: readOnly,
      run: async ({ scope }, input) => {
        checkedRange(input.from, input.to);
        const rows = await reads.entities(scope, input);
        const { page, nextCursor, total } = pageOf(sortEntities(rows, input.sort), input.limit, input.cursor);
        return { from: input.from, to: input.to, entities: page.map(entityRow), total, nextCursor };
      },
    }),
    defineTool({
      name: 'get_entity',
      title: 'Get a campaign, ad set or ad',
      description: 'One campaign, ad set or ad with its settings and its daily figures',
      scope: 'read',
      input: z.strictObject({ entityId: z.uuid(), ...range }),
      annotations: readOnly,
      run: async ({ scope }, input) => {
        checkedRange(input.from, input.to);
        const found = await reads.entity(scope, input.entityId, input.from, input.to);
        if (!found) throw new ToolError('not_found', 'No such entity in this workspace');
        return {
          entity: entityRow(found.entity),
          daily: found.daily.map((d) => ({
            date: d.date,
            spend: round(d.spend),
            impressions: d.impressions,
            clicks: d.clicks,
            results: round(d.conversions),
          })),
        };
      },
    }),
    defineTool({
      name: 'compare_periods',
      title: 'Compare two periods',
      description: 'What changed between two periods for an entity or an account, and which metric moved',
      scope: 'read',
      input: z.strictObject({
        level: z.enum(ENTITY_LEVELS).default('campaign'),
        adAccountId: z.uuid().optional(),
        entityId: z.uuid().optional(),
        ...range,
        limit: z.number().int().min(1).max(25).default(10),
      }),
      annotations: readOnly,
      run: async ({ scope }, input) => {
        checkedRange(input.from, input.to);
        const previous = previousPeriod(input.from, input.to);
        const [now, before] = await Promise.all([
          reads.entities(scope, { ...input }),
          reads.entities(scope, { ...input, ...previous }),
        ]);
        const earlier = new Map(before.map((e) => [e.id, e]));
        const rows = compareRows(now, earlier).filter((row) => !input.entityId || row.id === input.entityId);
        return { period: { from: input.from, to: input.to }, previous, changes: rows.slice(0, input.limit) };
      },
    }),
  ];
}

const MOVERS = ['cpa', 'cpm', 'ctr', 'frequency', 'roas'] as const;

/** Each entity's change between the periods, the biggest move of CPA first, with the metric that moved most. */
export function compareRows(now: EntityFigures[], earlier: Map<string, EntityFigures>) {
  return now
    .filter((e) => e.totals.spend > 0 || (earlier.get(e.id)?.totals.spend ?? 0) > 0)
    .map((e) => {
      const b = earlier.get(e.id);
      const deltas = Object.fromEntries(MOVERS.map((m) => [m, change(e[m], b ? b[m] : null)])) as Record<
        (typeof MOVERS)[number],
        number | null
      >;
      const moved = MOVERS.filter((m) => deltas[m] !== null).sort(
        (x, y) => Math.abs(deltas[y]!) - Math.abs(deltas[x]!),
      )[0];
      return {
        ...entityRow(e),
        before: b ? entityRow(b) : null,
        spendChange: change(e.totals.spend, b ? b.totals.spend : null),
        changes: deltas,
        moved: moved ?? null,
      };
    })
    .sort((x, y) => Math.abs((y.cpa ?? 0) - (y.before?.cpa ?? 0)) - Math.abs((x.cpa ?? 0) - (x.before?.cpa ?? 0)));
}
