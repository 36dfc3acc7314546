import { z } from 'zod';
import { ENTITY_LEVELS } from './metrics.ts';
import { calendarDate, text } from './text.ts';

/**
 * The explorer (issue 28): every campaign, ad set and ad of the workspace's connected accounts with its figures over
 * a window and the previous window of the same length, what AdPilot knows about it (rules, last action, proposals,
 * hold, a change made outside AdPilot, Meta's learning phase), its daily series and history, and manual actions
 * through the ledger. Money in the account currency's major units; ratios null where undefined; days are the
 * account's local days. `id` is ours, `externalId` Meta's.
 */

export const ENTITY_MESSAGES = {
  notFound: 'Entity not found',
  adAccountId: 'Unknown ad account',
  parentId: 'Unknown parent entity',
  fromAfterTo: 'The start date must not be after the end date',
  rangeTooLong: (days: number) => `A window covers at most ${days} days`,
  fromToTogether: 'Give both from and to, or neither',
  sortInvalid: (columns: readonly string[]) => `Sort by one of ${columns.join(', ')} (prefix - for descending)`,
  statusInvalid: 'Unknown status',
  cursorInvalid: 'This page link is no longer valid: start from the first page',
  itemsRequired: 'Choose at least one entity',
  itemsTooMany: (max: number) => `At most ${max} entities at once`,
  amountRequired: 'Give an amount or a percent',
  amountAndPercent: 'Give an amount or a percent, not both',
  amountInvalid: 'The amount must be above 0',
  percentInvalid: (max: number) => `A percent must be above 0 and at most ${max}`,
  amountNotForStatus: 'Pause and resume take no amount or percent',
  setBudgetPercent: 'A budget is set to an amount, not a percent',
  duplicateEntity: 'The same entity twice in one request',
  keyInvalid: 'A request key has 1 to 100 characters',
  dryRunAndPropose: 'Ask for a dry run or a proposal, not both',
} as const;

/** The longest window a list, a detail or an export reads; the backfill setting goes further (37 months). */
export const ENTITY_WINDOW_MAX_DAYS = 400;
export const ENTITY_PAGE_MAX = 500;
export const ENTITY_PAGE_DEFAULT = 100;
export const ENTITY_ACTIONS_MAX = 200;
export const ENTITY_PERCENT_MAX = 1000;
export const ENTITY_QUERY_MAX = 200;

/**
 * Windows resolved in each account's own time zone (so "today" is each account's today): `today`, `yesterday`, and
 * `last_Nd`, the N whole days ending yesterday (Meta's "Last N days"). A custom range is `from` and `to` instead.
 */
export const ENTITY_WINDOWS = ['today', 'yesterday', 'last_7d', 'last_14d', 'last_30d', 'last_90d'] as const;
export type EntityWindow = (typeof ENTITY_WINDOWS)[number];
export const ENTITY_WINDOW_DEFAULT: EntityWindow = 'last_7d';

/** The figures of one entity (or a currency's total) over some days. */
export const ENTITY_METRIC_KEYS = [
  'spend',
  'results',
  'cpa',
  'roas',
  'ctr',
  'cpc',
  'cpm',
  'frequency',
  'impressions',
  'clicks',
] as const;
export type EntityMetricKey = (typeof ENTITY_METRIC_KEYS)[number];

/** The columns a list sorts by: the metrics and `name`, `status` (effective) and `budget`. */
export const ENTITY_SORT_COLUMNS = ['name', 'status', 'budget', ...ENTITY_METRIC_KEYS] as const;
export type EntitySortColumn = (typeof ENTITY_SORT_COLUMNS)[number];
const SORT_VALUES = ENTITY_SORT_COLUMNS.flatMap((column) => [column, `-${column}`]);

/** Meta's effective statuses the status filter takes (comma-separated). */
export const ENTITY_EFFECTIVE_STATUSES = [
  'ACTIVE',
  'PAUSED',
  'CAMPAIGN_PAUSED',
  'ADSET_PAUSED',
  'ARCHIVED',
  'DELETED',
  'IN_PROCESS',
  'WITH_ISSUES',
  'PENDING_REVIEW',
  'DISAPPROVED',
  'PREAPPROVED',
  'PENDING_BILLING_INFO',
] as const;

/**
 * Spend, results (conversions), CPA (spend / results), ROAS (value / spend), CTR (clicks / impressions, percent),
 * CPC, CPM, frequency (impressions / the days' summed reach), impressions, clicks. Money in major units.
 */
export const entityMetricsSchema = z.object({
  spend: z.number(),
  results: z.number(),
  cpa: z.number().nullable(),
  roas: z.number().nullable(),
  ctr: z.number().nullable(),
  cpc: z.number().nullable(),
  cpm: z.number().nullable(),
  frequency: z.number().nullable(),
  impressions: z.number(),
  clicks: z.number(),
});
export type EntityMetrics = z.infer<typeof entityMetricsSchema>;

const entityRefSchema = z.object({ id: z.uuid(), name: z.string() });

/**
 * The budget that governs the entity: its own, or under campaign budget optimisation its campaign's, or an ad's ad
 * set's (or campaign's). `holderLevel` null: nothing holds one (a campaign without CBO has its budgets on its ad
 * sets: then daily and lifetime are null and `holderLevel` is `adset`).
 */
export const entityBudgetSchema = z.object({
  daily: z.number().nullable(),
  lifetime: z.number().nullable(),
  holderLevel: z.enum(['campaign', 'adset']).nullable(),
  /** Our id of the entity holding the budget (null when none does). */
  holderId: z.uuid().nullable(),
});
export type EntityBudget = z.infer<typeof entityBudgetSchema>;

/** The last rule action on the entity (or, for a budget, its holder): applied, failed or reverted. */
export const entityLastActionSchema = z.object({
  actionId: z.uuid(),
  ruleId: z.uuid().nullable(),
  ruleName: z.string().nullable(),
  runId: z.uuid().nullable(),
  /** A rule action type (pause, resume, increase_budget …). */
  type: z.string(),
  status: z.string(),
  at: z.string(),
  /** `rule` for a rule's action, `person` or `agent` for a manual one. */
  actorType: z.enum(['rule', 'person', 'agent']),
});
export type EntityLastAction = z.infer<typeof entityLastActionSchema>;

/** A timed hold (a pause a rule will resume): the ledger row and when it resumes. */
export const entityHoldSchema = z.object({ actionId: z.uuid(), resumesAt: z.string() });

/** The last status or budget change made outside AdPilot, and who made it when Meta says. */
export const entityExternalChangeSchema = z.object({ at: z.string(), by: z.string().nullable() });

/** Meta's learning phase of an ad set (an ad's ad set's): LEARNING, SUCCESS (exited) or FAIL (learning limited). */
export const entityLearningSchema = z.enum(['LEARNING', 'SUCCESS', 'FAIL']);

export const entityRowSchema = z.object({
  id: z.uuid(),
  adAccountId: z.uuid(),
  level: z.enum(ENTITY_LEVELS),
  externalId: z.string(),
  name: z.string(),
  parents: z.object({ campaign: entityRefSchema.optional(), adSet: entityRefSchema.optional() }),
  status: z.string(),
  effectiveStatus: z.string(),
  budget: entityBudgetSchema,
  currency: z.string(),
  metrics: entityMetricsSchema,
  previous: entityMetricsSchema,
  rules: z.array(z.object({ id: z.uuid(), name: z.string() })),
  lastAction: entityLastActionSchema.nullable(),
  pendingProposals: z.number().int(),
  hold: entityHoldSchema.nullable(),
  externalChange: entityExternalChangeSchema.nullable(),
  learning: entityLearningSchema.nullable(),
  /** Whether a person of an editor's role could act on it now (archived, deleted or read-only: false). */
  editable: z.boolean(),
});
export type EntityRow = z.infer<typeof entityRowSchema>;

/** A currency's total over the rows the filter selects (every page's, not only this one); never across currencies. */
export const entityTotalsSchema = z.object({
  currency: z.string(),
  /** How many entities of the filter are in this currency. */
  count: z.number().int(),
  metrics: entityMetricsSchema,
  previous: entityMetricsSchema,
});
export type EntityTotals = z.infer<typeof entityTotalsSchema>;

/**
 * Each account the answer read, with the window as its own time zone makes it: the days, the previous days of equal
 * length, its today, the first local day Meta still revises (`settlingFrom`: that day and later are "settling"), the
 * first day it has any data (null: none yet; days before it are "no data", never zero) and its backfill's progress.
 */
export const entityAccountWindowSchema = z.object({
  adAccountId: z.uuid(),
  name: z.string(),
  currency: z.string(),
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  previousFrom: z.string(),
  previousTo: z.string(),
  today: z.string(),
  settlingFrom: z.string(),
  firstDataDay: z.string().nullable(),
  readOnly: z.boolean(),
});
export type EntityAccountWindow = z.infer<typeof entityAccountWindowSchema>;

/**
 * GET /api/entities answers `{ success: true, data: [rows], totals, accounts, total, nextCursor }`: a page of rows,
 * the totals per currency of the whole filter, the accounts' windows and the next page's cursor (null: last page).
 */
export const entityListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(entityRowSchema),
  totals: z.array(entityTotalsSchema),
  accounts: z.array(entityAccountWindowSchema),
  /** How many rows the filter selects (all pages). */
  total: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type EntityListResponse = z.infer<typeof entityListResponseSchema>;
export type EntityList = Omit<EntityListResponse, 'success'>;

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

function checkWindow(query: { from?: string; to?: string }, ctx: z.RefinementCtx) {
  if ((query.from === undefined) !== (query.to === undefined))
    ctx.addIssue({
      code: 'custom',
      path: [query.from === undefined ? 'from' : 'to'],
      message: ENTITY_MESSAGES.fromToTogether,
    });
  else if (query.from !== undefined && query.to !== undefined) {
    if (query.from > query.to) ctx.addIssue({ code: 'custom', path: ['from'], message: ENTITY_MESSAGES.fromAfterTo });
    else if (daysBetween(query.from, query.to) > ENTITY_WINDOW_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: ENTITY_MESSAGES.rangeTooLong(ENTITY_WINDOW_MAX_DAYS) });
  }
}

const statusList = z
  .string()
  .max(400)
  .transform((value, ctx) => {
    const items = value
      .split(',')
      .map((item) => item.trim().toUpperCase())
      .filter(Boolean);
    for (const item of items)
      if (!(ENTITY_EFFECTIVE_STATUSES as readonly string[]).includes(item)) {
        ctx.addIssue({ code: 'custom', message: ENTITY_MESSAGES.statusInvalid });
        return z.NEVER;
      }
    return [...new Set(items)] as (typeof ENTITY_EFFECTIVE_STATUSES)[number][];
  });

/** The window: `from` and `to` (the accounts' local dates), else `window` (default last 7 days), each account's own. */
const windowShape = {
  from: calendarDate().optional(),
  to: calendarDate().optional(),
  window: z.enum(ENTITY_WINDOWS).optional(),
};

const listShape = {
  level: z.enum(ENTITY_LEVELS).default('campaign'),
  adAccountId: z.uuid({ error: ENTITY_MESSAGES.adAccountId }).optional(),
  /** Our id of a campaign (its ad sets or ads) or an ad set (its ads). */
  parentId: z.uuid({ error: ENTITY_MESSAGES.parentId }).optional(),
  ...windowShape,
  sort: z
    .string()
    .refine((value) => SORT_VALUES.includes(value), ENTITY_MESSAGES.sortInvalid(ENTITY_SORT_COLUMNS))
    .default('-spend'),
  status: statusList.optional(),
  q: text({ trim: true }).max(ENTITY_QUERY_MAX).optional(),
};

/**
 * GET /api/entities?level=&adAccountId=&parentId=&from=&to=&window=&sort=-spend&status=ACTIVE,PAUSED&q=&limit=&cursor=
 * Sorts put undefined ratios last in either direction, then by name and id, so pages are stable.
 */
export const entityListQuerySchema = z
  .strictObject({
    ...listShape,
    limit: z.coerce.number().int().min(1).max(ENTITY_PAGE_MAX).default(ENTITY_PAGE_DEFAULT),
    cursor: z.string().max(500).optional(),
  })
  .superRefine(checkWindow);
export type EntityListQuery = z.infer<typeof entityListQuerySchema>;

export const ENTITY_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type EntityExportFormat = (typeof ENTITY_EXPORT_FORMATS)[number];

/**
 * GET /api/entities/export?format=csv|xlsx&…the list's query (no page: every row of the filter, in its sort).
 * `columns` (comma-separated metric keys) keeps the table as shown; absent: every column. The file is named
 * `adpilot-<level>s-<local date>.<format>`.
 */
export const entityExportQuerySchema = z
  .strictObject({
    ...listShape,
    format: z.enum(ENTITY_EXPORT_FORMATS).default('csv'),
    columns: z
      .string()
      .max(400)
      .transform((value, ctx) => {
        const items = value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean);
        for (const item of items)
          if (!(ENTITY_METRIC_KEYS as readonly string[]).includes(item)) {
            ctx.addIssue({ code: 'custom', message: `Unknown column ${item.slice(0, 40)}` });
            return z.NEVER;
          }
        return [...new Set(items)] as EntityMetricKey[];
      })
      .optional(),
  })
  .superRefine(checkWindow);
export type EntityExportQuery = z.infer<typeof entityExportQuerySchema>;

export const entityIdParamsSchema = z.strictObject({ id: z.uuid({ error: ENTITY_MESSAGES.notFound }) });

/** GET /api/entities/:id?from=&to=&window= */
export const entityDetailQuerySchema = z.strictObject(windowShape).superRefine(checkWindow);
export type EntityDetailQuery = z.infer<typeof entityDetailQuerySchema>;

/**
 * One local day of the window. `hasData` false: before the account's first day with data ("no data", figures null,
 * never zero); `settling`: Meta may still revise it.
 */
export const entityDaySchema = z.object({
  date: z.string(),
  hasData: z.boolean(),
  settling: z.boolean(),
  spend: z.number().nullable(),
  results: z.number().nullable(),
  cpa: z.number().nullable(),
  roas: z.number().nullable(),
  ctr: z.number().nullable(),
  cpc: z.number().nullable(),
  cpm: z.number().nullable(),
  frequency: z.number().nullable(),
  impressions: z.number().nullable(),
  clicks: z.number().nullable(),
});
export type EntityDay = z.infer<typeof entityDaySchema>;

export const ENTITY_HISTORY_KINDS = ['rule_action', 'manual_action', 'external_change', 'proposal'] as const;
export type EntityHistoryKind = (typeof ENTITY_HISTORY_KINDS)[number];

/**
 * One event of the entity's history, newest first: a rule's action, a manual change (a person's or an agent's), a
 * change made outside AdPilot, or a proposal. `date` is its local day (where the chart marks it). `from`/`to` a
 * status or a budget in major units.
 */
export const entityHistoryItemSchema = z.object({
  id: z.string(),
  kind: z.enum(ENTITY_HISTORY_KINDS),
  at: z.string(),
  date: z.string(),
  /** An action type (pause, resume, set_budget …); null for an external change. */
  type: z.string().nullable(),
  field: z.string().nullable(),
  from: z.union([z.string(), z.number()]).nullable(),
  to: z.union([z.string(), z.number()]).nullable(),
  /** The ledger row's status (applied, failed, reverted, proposed …); null for an external change. */
  status: z.string().nullable(),
  actor: z.object({
    type: z.enum(['rule', 'person', 'agent', 'external']),
    /** The rule's, the member's or the token's id (null for an external change). */
    id: z.string().nullable(),
    name: z.string().nullable(),
  }),
  ruleId: z.uuid().nullable(),
  runId: z.uuid().nullable(),
  /** The ledger row (for the revert route), null for an external change. */
  actionId: z.uuid().nullable(),
  revertible: z.boolean(),
});
export type EntityHistoryItem = z.infer<typeof entityHistoryItemSchema>;

export const ENTITY_HISTORY_MAX = 100;

/** GET /api/entities/:id: the row, the account's window, every day of it, the history (at most ENTITY_HISTORY_MAX). */
export const entityDetailSchema = entityRowSchema.extend({
  account: entityAccountWindowSchema,
  daily: z.array(entityDaySchema),
  history: z.array(entityHistoryItemSchema),
});
export type EntityDetail = z.infer<typeof entityDetailSchema>;

export const ENTITY_ACTION_TYPES = ['pause', 'resume', 'set_budget', 'increase_budget', 'decrease_budget'] as const;
export type EntityActionType = (typeof ENTITY_ACTION_TYPES)[number];

/**
 * One change by hand: pause or resume the entity, or its budget (its budget holder's, as a rule's action would):
 * `set_budget` to `amount`, `increase_budget`/`decrease_budget` by `amount` or by `percent`. Amounts in the
 * account currency's major units.
 */
export const entityActionItemSchema = z
  .strictObject({
    entityId: z.uuid({ error: ENTITY_MESSAGES.notFound }),
    type: z.enum(ENTITY_ACTION_TYPES),
    amount: z.number().positive(ENTITY_MESSAGES.amountInvalid).max(1e12).optional(),
    percent: z
      .number()
      .positive(ENTITY_MESSAGES.percentInvalid(ENTITY_PERCENT_MAX))
      .max(ENTITY_PERCENT_MAX, ENTITY_MESSAGES.percentInvalid(ENTITY_PERCENT_MAX))
      .optional(),
  })
  .superRefine((item, ctx) => {
    const given = (item.amount !== undefined ? 1 : 0) + (item.percent !== undefined ? 1 : 0);
    if (item.type === 'pause' || item.type === 'resume') {
      if (given > 0) ctx.addIssue({ code: 'custom', path: ['amount'], message: ENTITY_MESSAGES.amountNotForStatus });
    } else if (item.type === 'set_budget') {
      if (item.percent !== undefined)
        ctx.addIssue({ code: 'custom', path: ['percent'], message: ENTITY_MESSAGES.setBudgetPercent });
      else if (item.amount === undefined)
        ctx.addIssue({ code: 'custom', path: ['amount'], message: ENTITY_MESSAGES.amountRequired });
    } else if (given === 0) ctx.addIssue({ code: 'custom', path: ['amount'], message: ENTITY_MESSAGES.amountRequired });
    else if (given === 2)
      ctx.addIssue({ code: 'custom', path: ['percent'], message: ENTITY_MESSAGES.amountAndPercent });
  });
export type EntityActionItem = z.infer<typeof entityActionItemSchema>;

/**
 * POST /api/entities/actions: one confirmation, an outcome per item. `dryRun` answers what each would do (from →
 * to, or why it is refused) and writes nothing: the confirmation's figures. `propose` leaves each change in the
 * Inbox for a person to approve instead of writing it. `key` names the request: the same person sending the same
 * key again gets the first answer's rows back and nothing is written twice.
 */
export const entityActionsRequestSchema = z
  .strictObject({
    items: z
      .array(entityActionItemSchema)
      .min(1, ENTITY_MESSAGES.itemsRequired)
      .max(ENTITY_ACTIONS_MAX, ENTITY_MESSAGES.itemsTooMany(ENTITY_ACTIONS_MAX)),
    dryRun: z.boolean().optional(),
    propose: z.boolean().optional(),
    key: z.string().trim().min(1, ENTITY_MESSAGES.keyInvalid).max(100, ENTITY_MESSAGES.keyInvalid).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.dryRun && body.propose)
      ctx.addIssue({ code: 'custom', path: ['propose'], message: ENTITY_MESSAGES.dryRunAndPropose });
    const seen = new Set<string>();
    body.items.forEach((item, index) => {
      if (seen.has(item.entityId))
        ctx.addIssue({ code: 'custom', path: ['items', index, 'entityId'], message: ENTITY_MESSAGES.duplicateEntity });
      seen.add(item.entityId);
    });
  });
export type EntityActionsRequest = z.infer<typeof entityActionsRequestSchema>;

/**
 * Why an item was refused (its `code`): the entity is unknown or not of this workspace; archived or deleted; the
 * account read-only or needing reconnection; a budget change on an entity with no budget holder or no budget;
 * Meta's four budget changes an hour on that budget; under the account's minimum daily budget; already paused or
 * active; the new budget rounds to the current one; the live value changed while being written; Meta refused or
 * rate-limited the write; a campaign the agent policy protects; the same request's change still being written.
 */
export const ENTITY_ACTION_REFUSAL_CODES = [
  'ENTITY_NOT_FOUND',
  'NOT_EDITABLE',
  'AD_ACCOUNT_READ_ONLY',
  'META_REAUTH_REQUIRED',
  'NO_BUDGET_HOLDER',
  'NO_BUDGET',
  'BUDGET_CHANGE_LIMIT',
  'BELOW_ACCOUNT_MINIMUM',
  'ALREADY_PAUSED',
  'ALREADY_ACTIVE',
  'UNCHANGED',
  'LIVE_VALUE_DIFFERS',
  'META_ERROR',
  'META_RATE_LIMITED',
  'AGENT_PROTECTED_CAMPAIGN',
  'IN_PROGRESS',
] as const;
export type EntityActionRefusalCode = (typeof ENTITY_ACTION_REFUSAL_CODES)[number];

/**
 * An item's outcome: `applied` (written once; `actionId` is the ledger row the revert route takes), `refused` (with
 * `code` and its figures in `params`), `would_apply` (a dry run), or `proposed` (an agent's change above its policy:
 * a proposal in the Inbox, `proposalId`). `from` → `to`: a status or a budget in major units.
 */
export const entityActionResultSchema = z.object({
  entityId: z.uuid(),
  outcome: z.enum(['applied', 'refused', 'would_apply', 'proposed']),
  code: z.enum(ENTITY_ACTION_REFUSAL_CODES).optional(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  actionId: z.uuid().optional(),
  proposalId: z.uuid().optional(),
  /** The entity written to: itself, or for a budget its budget holder. */
  targetId: z.uuid().nullable(),
  field: z.enum(['status', 'daily_budget', 'lifetime_budget']).nullable(),
  from: z.union([z.string(), z.number()]).nullable(),
  to: z.union([z.string(), z.number()]).nullable(),
  currency: z.string().nullable(),
});
export type EntityActionResult = z.infer<typeof entityActionResultSchema>;

/** POST /api/entities/actions answers `{ success: true, data: [results] }`, one per item in the request's order. */
export const entityActionsResultsSchema = z.array(entityActionResultSchema);
export type EntityActionsResults = z.infer<typeof entityActionsResultsSchema>;
