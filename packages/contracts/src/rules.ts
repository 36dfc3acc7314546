import { z } from 'zod';
import { ENTITY_LEVELS } from './metrics.ts';
import { ruleWarningSchema } from './rule-codes.ts';

/**
 * The automation rule format: the public API's JSON, the builder's form and what the engine evaluates. Money is in
 * the account currency's major units (500 = ฿500); the engine converts budgets to Meta's minor units.
 */

/** Metrics a condition can read. The last three are the entity's state, not delivery over a window. */
export const RULE_METRICS = [
  'spend',
  'impressions',
  'reach',
  'frequency',
  'clicks',
  'link_clicks',
  'ctr',
  'cpc',
  'cpm',
  'conversions',
  'cpa',
  'conversion_value',
  'roas',
  'daily_budget',
  'lifetime_budget',
  'hours_since_creation',
] as const;
export type RuleMetric = (typeof RULE_METRICS)[number];

/** Metrics that describe the entity now, whatever the condition's window. */
export const STATE_METRICS: ReadonlySet<RuleMetric> = new Set([
  'daily_budget',
  'lifetime_budget',
  'hours_since_creation',
]);
/** Metrics in the account currency's major units. */
export const MONEY_METRICS: ReadonlySet<RuleMetric> = new Set([
  'spend',
  'cpc',
  'cpm',
  'cpa',
  'conversion_value',
  'daily_budget',
  'lifetime_budget',
]);

/** Windows in the account's time zone; `last_Nd` are the N whole days before today, plus today with includeToday. */
export const RULE_WINDOWS = ['today', 'yesterday', 'last_3d', 'last_7d', 'last_14d', 'last_30d', 'lifetime'] as const;
export type RuleWindow = (typeof RULE_WINDOWS)[number];

export const RULE_OPERATORS = ['gt', 'gte', 'lt', 'lte', 'eq', 'neq', 'between'] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

export const RULE_ACTION_TYPES = [
  'pause',
  'resume',
  'increase_budget',
  'decrease_budget',
  'set_budget',
  'notify',
] as const;
export type RuleActionType = (typeof RULE_ACTION_TYPES)[number];
export const BUDGET_ACTION_TYPES: ReadonlySet<RuleActionType> = new Set([
  'increase_budget',
  'decrease_budget',
  'set_budget',
]);

export const RULE_MATCH_MODES = ['all', 'any'] as const;
export const RULE_SCHEDULE_MINUTES = [5, 15, 30, 60] as const;
/** The entity statuses a scope may filter on (the entity's own status, which pause and resume change). */
export const RULE_ENTITY_STATUSES = ['ACTIVE', 'PAUSED'] as const;

export const RULE_LIMITS = {
  nameMax: 100,
  descriptionMax: 500,
  nameContainsMax: 200,
  notifyMessageMax: 500,
  adAccountsMax: 50,
  /** The top-level group is depth 1. */
  groupDepthMax: 3,
  conditionsMax: 50,
  percentMax: 1000,
  factorMax: 1000,
  cooldownHoursMax: 720,
  maxActionsPerDayMax: 10_000,
  settleHoursMax: 23,
  backtestDaysMax: 90,
  backtestDaysDefault: 30,
} as const;

export const RULE_SAFEGUARD_DEFAULTS = {
  cooldownHours: 24,
  maxActionsPerDay: 20,
  minSpend: 0,
  minImpressions: 0,
  settleHours: 0,
} as const;

/** Meta refuses a fifth budget change within an hour on the same budget (error 17). */
export const META_BUDGET_CHANGES_PER_HOUR = 4;

/** The texts of spec §3, §4 and §6 for rules, and one message per refusal of the rule format. */
export const RULE_MESSAGES = {
  notAuthenticated: 'User not authenticated',
  notFound: 'Rule not found',
  nameRequired: 'Rule name is required',
  nameMax: `Rule name must be at most ${RULE_LIMITS.nameMax} characters`,
  descriptionMax: `Description must be at most ${RULE_LIMITS.descriptionMax} characters`,
  levelInvalid: 'Level must be campaign, adset or ad',
  adAccountIdInvalid: 'Invalid ad account id',
  adAccountNotOwned: 'This ad account is not one of yours',
  adAccountsMax: `A rule can name at most ${RULE_LIMITS.adAccountsMax} ad accounts`,
  nameContainsInvalid: `The name filter must be 1 to ${RULE_LIMITS.nameContainsMax} characters`,
  statusInvalid: 'Status must be ACTIVE or PAUSED',
  metricUnknown: `Unknown metric: use one of ${RULE_METRICS.join(', ')}`,
  windowUnknown: `Unknown window: use one of ${RULE_WINDOWS.join(', ')}`,
  operatorUnknown: `Unknown operator: use one of ${RULE_OPERATORS.join(', ')}`,
  matchInvalid: 'A group matches all or any of its items',
  itemInvalid: 'Each item is a condition (metric, operator, value, window) or a group (match, items)',
  valueInvalid: 'The value must be a number, [low, high] for between, or { metric, factor }',
  valueNotFinite: 'The value must be a finite number',
  betweenNeedsRange: 'between needs two numbers [low, high]',
  rangeUnordered: 'The low end of between must not be above the high end',
  rangeNeedsBetween: 'A range [low, high] needs the between operator',
  factorInvalid: `The factor must be above 0 and at most ${RULE_LIMITS.factorMax}`,
  conditionsEmpty: 'Add at least one condition',
  groupTooDeep: `Groups nest at most ${RULE_LIMITS.groupDepthMax} levels deep`,
  conditionsMax: `A rule can hold at most ${RULE_LIMITS.conditionsMax} conditions`,
  actionsEmpty: 'Add at least one action',
  actionTypeUnknown: `Unknown action: use one of ${RULE_ACTION_TYPES.join(', ')}`,
  percentOutOfRange: `A percentage must be above 0 and at most ${RULE_LIMITS.percentMax}`,
  decreasePercentMax: 'A decrease must be below 100%',
  amountPositive: 'The amount must be above 0',
  unitInvalid: 'The unit must be percent or amount',
  ceilingPositive: 'The ceiling must be above 0',
  floorPositive: 'The floor must be above 0',
  floorAboveCeiling: 'The floor must not be above the ceiling',
  budgetActionAtAdLevel: 'Ads have no budget: budget actions need the campaign or ad set level',
  oneBudgetAction: 'A rule changes a budget with one action at most',
  pauseAndResume: 'A rule cannot both pause and resume',
  notifyMessageMax: `The message must be at most ${RULE_LIMITS.notifyMessageMax} characters`,
  scheduleInvalid: 'The schedule is { everyMinutes: 5, 15, 30 or 60 } or { dailyAt: "HH:MM" }',
  everyMinutesInvalid: 'Run every 5, 15, 30 or 60 minutes',
  dailyAtInvalid: 'The time must be HH:MM between 00:00 and 23:59',
  cooldownInvalid: `The cooldown is 0 to ${RULE_LIMITS.cooldownHoursMax} whole hours`,
  maxActionsInvalid: `Actions per day must be a whole number from 1 to ${RULE_LIMITS.maxActionsPerDayMax}`,
  minSpendInvalid: 'The minimum spend must be 0 or more',
  minImpressionsInvalid: 'The minimum impressions must be a whole number, 0 or more',
  settleHoursInvalid: `Settle hours are 0 to ${RULE_LIMITS.settleHoursMax} whole hours`,
  nothingToUpdate: 'Nothing to update',
  backtestDaysInvalid: `Days must be a whole number from 1 to ${RULE_LIMITS.backtestDaysMax}`,
  activeRuleLimit: 'Your plan allows no more active rules',
} as const;

const M = RULE_MESSAGES;

export const ruleMetricSchema = z.enum(RULE_METRICS, { error: M.metricUnknown });
export const ruleWindowSchema = z.enum(RULE_WINDOWS, { error: M.windowUnknown });
export const ruleOperatorSchema = z.enum(RULE_OPERATORS, { error: M.operatorUnknown });

const finite = (message: string) => z.number({ error: message }).refine(Number.isFinite, { message });

/** `{ metric, factor }`: compare with another metric of the same entity and window, times a factor (default 1). */
export const metricRefSchema = z.strictObject({
  metric: ruleMetricSchema,
  factor: z
    .number({ error: M.factorInvalid })
    .gt(0, M.factorInvalid)
    .max(RULE_LIMITS.factorMax, M.factorInvalid)
    .default(1),
});

export const rangeSchema = z
  .tuple([finite(M.betweenNeedsRange), finite(M.betweenNeedsRange)], { error: M.betweenNeedsRange })
  .refine(([low, high]) => low <= high, { message: M.rangeUnordered });

/** The first message of the branch the input looks like: one clear message for the field, not "Invalid input". */
function valueMessage(input: unknown): string {
  if (Array.isArray(input)) return rangeSchema.safeParse(input).error?.issues[0]?.message ?? M.betweenNeedsRange;
  if (typeof input === 'object' && input !== null) {
    return metricRefSchema.safeParse(input).error?.issues[0]?.message ?? M.valueInvalid;
  }
  return typeof input === 'number' ? M.valueNotFinite : M.valueInvalid;
}

export const conditionValueSchema = z.union([finite(M.valueNotFinite), rangeSchema, metricRefSchema], {
  error: (issue) => valueMessage(issue.input),
});

export const ruleConditionSchema = z
  .strictObject({
    // Lets a group and a condition be told apart by `match` alone (see ruleConditionItemSchema).
    match: z.undefined().optional(),
    metric: ruleMetricSchema,
    operator: ruleOperatorSchema,
    value: conditionValueSchema,
    window: ruleWindowSchema,
    includeToday: z.boolean().default(false),
  })
  .superRefine((condition, ctx) => {
    const isRange = Array.isArray(condition.value);
    if (condition.operator === 'between' && !isRange) {
      ctx.addIssue({ code: 'custom', message: M.betweenNeedsRange, path: ['value'] });
    } else if (condition.operator !== 'between' && isRange) {
      ctx.addIssue({ code: 'custom', message: M.rangeNeedsBetween, path: ['value'] });
    }
  });

export type RuleCondition = z.output<typeof ruleConditionSchema>;
export type RuleConditionGroup = { match: 'all' | 'any'; items: RuleConditionItem[] };
export type RuleConditionItem = RuleCondition | RuleConditionGroup;

const matchSchema = z.enum(RULE_MATCH_MODES, { error: M.matchInvalid });

/** A group of conditions and groups; depth and size are checked once on the whole tree (conditionsSchema). */
export const ruleConditionGroupSchema: z.ZodType<RuleConditionGroup, unknown> = z.strictObject({
  match: matchSchema,
  get items() {
    return z.array(ruleConditionItemSchema, { error: M.conditionsEmpty }).min(1, M.conditionsEmpty);
  },
});

/** A group has `match`, a condition has none: that key picks the schema, so each field gets its own message. */
export const ruleConditionItemSchema = z.discriminatedUnion(
  'match',
  [ruleConditionSchema, ruleConditionGroupSchema as unknown as z.ZodObject<{ match: typeof matchSchema }>],
  { error: (issue) => (typeof issue.input === 'object' && issue.input !== null ? M.matchInvalid : M.itemInvalid) },
) as unknown as z.ZodType<RuleConditionItem, unknown>;

export function isConditionGroup(item: RuleConditionItem): item is RuleConditionGroup {
  return 'items' in item;
}

/** The number of leaf conditions in a tree (the Rules page's "conditions" count). */
export function countConditions(group: RuleConditionGroup): number {
  let count = 0;
  for (const item of group.items) count += isConditionGroup(item) ? countConditions(item) : 1;
  return count;
}

function checkTree(group: RuleConditionGroup, depth: number, path: (string | number)[], ctx: z.RefinementCtx): void {
  group.items.forEach((item, index) => {
    if (!isConditionGroup(item)) return;
    if (depth + 1 > RULE_LIMITS.groupDepthMax) {
      ctx.addIssue({ code: 'custom', message: M.groupTooDeep, path: [...path, 'items', index] });
      return;
    }
    checkTree(item, depth + 1, [...path, 'items', index], ctx);
  });
}

export const ruleConditionsSchema = (ruleConditionGroupSchema as z.ZodType<RuleConditionGroup>).superRefine(
  (group, ctx) => {
    checkTree(group, 1, [], ctx);
    if (countConditions(group) > RULE_LIMITS.conditionsMax) ctx.addIssue({ code: 'custom', message: M.conditionsMax });
  },
);

const money = (message: string) => z.number({ error: message }).gt(0, message).refine(Number.isFinite, { message });

const budgetChangeSchema = z
  .strictObject({
    type: z.enum(['increase_budget', 'decrease_budget']),
    by: z.number({ error: M.amountPositive }).refine(Number.isFinite, M.amountPositive),
    unit: z.enum(['percent', 'amount'], { error: M.unitInvalid }),
    ceiling: money(M.ceilingPositive).optional(),
    floor: money(M.floorPositive).optional(),
  })
  .superRefine((action, ctx) => {
    if (action.by <= 0) {
      ctx.addIssue({
        code: 'custom',
        message: action.unit === 'percent' ? M.percentOutOfRange : M.amountPositive,
        path: ['by'],
      });
    } else if (action.unit === 'percent' && action.by > RULE_LIMITS.percentMax) {
      ctx.addIssue({ code: 'custom', message: M.percentOutOfRange, path: ['by'] });
    }
    if (action.unit === 'percent' && action.type === 'decrease_budget' && action.by >= 100) {
      ctx.addIssue({ code: 'custom', message: M.decreasePercentMax, path: ['by'] });
    }
    if (action.ceiling !== undefined && action.floor !== undefined && action.floor > action.ceiling) {
      ctx.addIssue({ code: 'custom', message: M.floorAboveCeiling, path: ['floor'] });
    }
  });

export const ruleActionSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('pause') }),
    z.strictObject({ type: z.literal('resume') }),
    budgetChangeSchema,
    z.strictObject({ type: z.literal('set_budget'), amount: money(M.amountPositive) }),
    z.strictObject({
      type: z.literal('notify'),
      message: z.string().trim().max(RULE_LIMITS.notifyMessageMax, M.notifyMessageMax).optional(),
    }),
  ],
  { error: M.actionTypeUnknown },
);
export type RuleAction = z.output<typeof ruleActionSchema>;
export type BudgetChangeAction = Extract<RuleAction, { type: 'increase_budget' | 'decrease_budget' }>;

export const ruleScheduleSchema = z.union(
  [
    z.strictObject({
      everyMinutes: z.union(
        RULE_SCHEDULE_MINUTES.map((minutes) => z.literal(minutes)),
        { error: M.everyMinutesInvalid },
      ),
    }),
    z.strictObject({
      dailyAt: z.string({ error: M.dailyAtInvalid }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, M.dailyAtInvalid),
    }),
  ],
  {
    error: (issue) => {
      const input = issue.input as Record<string, unknown> | undefined;
      if (input && typeof input === 'object' && 'everyMinutes' in input && !('dailyAt' in input)) {
        return M.everyMinutesInvalid;
      }
      if (input && typeof input === 'object' && 'dailyAt' in input && !('everyMinutes' in input)) {
        return M.dailyAtInvalid;
      }
      return M.scheduleInvalid;
    },
  },
);
export type RuleSchedule = z.output<typeof ruleScheduleSchema>;

const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

export const ruleSafeguardsSchema = z.strictObject({
  cooldownHours: wholeNumber(0, RULE_LIMITS.cooldownHoursMax, M.cooldownInvalid).default(
    RULE_SAFEGUARD_DEFAULTS.cooldownHours,
  ),
  maxActionsPerDay: wholeNumber(1, RULE_LIMITS.maxActionsPerDayMax, M.maxActionsInvalid).default(
    RULE_SAFEGUARD_DEFAULTS.maxActionsPerDay,
  ),
  minSpend: z
    .number({ error: M.minSpendInvalid })
    .min(0, M.minSpendInvalid)
    .refine(Number.isFinite, M.minSpendInvalid)
    .default(RULE_SAFEGUARD_DEFAULTS.minSpend),
  minImpressions: wholeNumber(0, Number.MAX_SAFE_INTEGER, M.minImpressionsInvalid).default(
    RULE_SAFEGUARD_DEFAULTS.minImpressions,
  ),
  settleHours: wholeNumber(0, RULE_LIMITS.settleHoursMax, M.settleHoursInvalid).default(
    RULE_SAFEGUARD_DEFAULTS.settleHours,
  ),
});
export type RuleSafeguards = z.output<typeof ruleSafeguardsSchema>;

export const ruleScopeSchema = z.strictObject({
  /** Empty: every ad account of the caller. */
  adAccountIds: z
    .array(z.uuid({ error: M.adAccountIdInvalid }))
    .max(RULE_LIMITS.adAccountsMax, M.adAccountsMax)
    .default([]),
  level: z.enum(ENTITY_LEVELS, { error: M.levelInvalid }),
  nameContains: z
    .string({ error: M.nameContainsInvalid })
    .trim()
    .min(1, M.nameContainsInvalid)
    .max(RULE_LIMITS.nameContainsMax, M.nameContainsInvalid)
    .optional(),
  statuses: z.array(z.enum(RULE_ENTITY_STATUSES, { error: M.statusInvalid })).optional(),
});
export type RuleScope = z.output<typeof ruleScopeSchema>;

const ruleFields = {
  name: z.string({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(RULE_LIMITS.nameMax, M.nameMax),
  description: z.string({ error: M.descriptionMax }).trim().max(RULE_LIMITS.descriptionMax, M.descriptionMax),
  isActive: z.boolean(),
  scope: ruleScopeSchema,
  conditions: ruleConditionsSchema,
  actions: z.array(ruleActionSchema, { error: M.actionsEmpty }).min(1, M.actionsEmpty),
  schedule: ruleScheduleSchema,
  safeguards: ruleSafeguardsSchema,
};

/** Checks that need the scope and the actions together. */
function checkActions(rule: { scope?: { level: string }; actions?: RuleAction[] }, ctx: z.RefinementCtx): void {
  const actions = rule.actions ?? [];
  let budgetActions = 0;
  actions.forEach((action, index) => {
    if (!isBudgetAction(action)) return;
    budgetActions += 1;
    if (rule.scope?.level === 'ad') {
      ctx.addIssue({ code: 'custom', message: M.budgetActionAtAdLevel, path: ['actions', index, 'type'] });
    } else if (budgetActions > 1) {
      ctx.addIssue({ code: 'custom', message: M.oneBudgetAction, path: ['actions', index, 'type'] });
    }
  });
  const resumeAt = actions.findIndex((action) => action.type === 'resume');
  if (resumeAt >= 0 && actions.some((action) => action.type === 'pause')) {
    ctx.addIssue({ code: 'custom', message: M.pauseAndResume, path: ['actions', resumeAt, 'type'] });
  }
}

export function isBudgetAction(
  action: RuleAction,
): action is Extract<RuleAction, { type: 'increase_budget' | 'decrease_budget' | 'set_budget' }> {
  return BUDGET_ACTION_TYPES.has(action.type);
}

/** POST /api/rules and POST /api/rules/preview: a whole rule. */
export const createRuleRequestSchema = z
  .strictObject({
    ...ruleFields,
    description: ruleFields.description.default(''),
    isActive: ruleFields.isActive.default(false),
    safeguards: ruleFields.safeguards.default({ ...RULE_SAFEGUARD_DEFAULTS }),
  })
  .superRefine(checkActions);
export type CreateRuleRequest = z.input<typeof createRuleRequestSchema>;
/** A rule as stored and evaluated: every default filled in. */
export type RuleBody = z.output<typeof createRuleRequestSchema>;

/**
 * PATCH /api/rules/:id: any subset of the fields, each replacing the stored one whole. The server checks the
 * merged rule again with createRuleRequestSchema (a budget action at ad level can come from either side).
 */
export const updateRuleRequestSchema = z
  .strictObject({
    name: ruleFields.name.optional(),
    description: ruleFields.description.optional(),
    isActive: ruleFields.isActive.optional(),
    scope: ruleFields.scope.optional(),
    conditions: ruleFields.conditions.optional(),
    actions: ruleFields.actions.optional(),
    schedule: ruleFields.schedule.optional(),
    safeguards: ruleFields.safeguards.optional(),
  })
  .superRefine(checkActions)
  .refine((body) => Object.keys(body).length > 0, { message: M.nothingToUpdate });
export type UpdateRuleRequest = z.input<typeof updateRuleRequestSchema>;

export const ruleIdParamsSchema = z.strictObject({ id: z.uuid({ error: M.notFound }) });

/** A rule as the API answers it. */
export const ruleSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  isActive: z.boolean(),
  scope: ruleScopeSchema,
  conditions: ruleConditionsSchema,
  actions: z.array(ruleActionSchema),
  schedule: ruleScheduleSchema,
  safeguards: ruleSafeguardsSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When an action of this rule last ran; null until one has. */
  lastTriggered: z.string().nullable(),
  warnings: z.array(ruleWarningSchema),
});
export type Rule = z.infer<typeof ruleSchema>;
