import { z } from 'zod';
import { ENTITY_LEVELS } from './metrics.ts';
import { ruleWarningSchema } from './rule-codes.ts';
import {
  RULE_METRICS,
  RULE_WINDOWS,
  RULE_COMPARISONS,
  STATE_METRICS,
  RULE_OPERATORS,
  BUDGET_ACTION_TYPES,
  RULE_MATCH_MODES,
  RULE_SCHEDULE_MINUTES,
  RULE_ENTITY_STATUSES,
  RULE_LIMITS,
  RULE_SAFEGUARD_DEFAULTS,
  RULE_MESSAGES,
  RULE_MODES,
  RULE_APPROVAL_HOURS_DEFAULT,
} from './rule-constants.ts';
import { text } from './text.ts';

/**
 * The automation rule format: the public API's JSON, the builder's form and what the engine evaluates. Money is in
 * the account currency's major units (500 = ฿500); the engine converts budgets to Meta's minor units.
 */

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

export const ruleComparisonSchema = z.enum(RULE_COMPARISONS, { error: M.compareUnknown });

export const ruleConditionSchema = z
  .strictObject({
    // Lets a group and a condition be told apart by `match` alone (see ruleConditionItemSchema).
    match: z.undefined().optional(),
    metric: ruleMetricSchema,
    operator: ruleOperatorSchema,
    /** A number, a range, or { metric, factor }; with compare previous_period the change in %; absent with account/campaign. */
    value: conditionValueSchema.optional(),
    window: ruleWindowSchema,
    includeToday: z.boolean().default(false),
    /** A relative condition (ADR 0121). */
    compare: ruleComparisonSchema.optional(),
    /** With compare account or campaign: the metric against factor × the account's or campaign's value. */
    factor: z
      .number({ error: M.factorInvalid })
      .gt(0, M.factorInvalid)
      .max(RULE_LIMITS.factorMax, M.factorInvalid)
      .optional(),
  })
  .superRefine((condition, ctx) => {
    const { compare } = condition;
    if (compare !== undefined) {
      if (STATE_METRICS.has(condition.metric))
        ctx.addIssue({ code: 'custom', message: M.compareStateMetric, path: ['metric'] });
    }
    if (compare === 'previous_period') {
      if (condition.window === 'lifetime')
        ctx.addIssue({ code: 'custom', message: M.compareLifetime, path: ['window'] });
      if (condition.factor !== undefined)
        ctx.addIssue({ code: 'custom', message: M.compareNeedsNumber, path: ['factor'] });
      const value = condition.value;
      if (value === undefined || (typeof value === 'object' && !Array.isArray(value))) {
        ctx.addIssue({ code: 'custom', message: M.compareNeedsNumber, path: ['value'] });
        return;
      }
    } else if (compare === 'account' || compare === 'campaign') {
      if (condition.factor === undefined)
        ctx.addIssue({ code: 'custom', message: M.compareNeedsFactor, path: ['factor'] });
      if (condition.value !== undefined)
        ctx.addIssue({ code: 'custom', message: M.compareNeedsFactor, path: ['value'] });
      if (condition.operator === 'between')
        ctx.addIssue({ code: 'custom', message: M.compareNeedsFactor, path: ['operator'] });
      return;
    } else {
      if (condition.factor !== undefined)
        ctx.addIssue({ code: 'custom', message: M.factorNeedsCompare, path: ['factor'] });
      if (condition.value === undefined) {
        ctx.addIssue({ code: 'custom', message: M.valueRequired, path: ['value'] });
        return;
      }
    }
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
export const ruleConditionItemSchema = z
  .discriminatedUnion(
    'match',
    [ruleConditionSchema, ruleConditionGroupSchema as unknown as z.ZodObject<{ match: typeof matchSchema }>],
    { error: (issue) => (typeof issue.input === 'object' && issue.input !== null ? M.matchInvalid : M.itemInvalid) },
    // Named, so the API document can refer to the recursion instead of leaving a reference it never defines.
  )
  .meta({ id: 'RuleConditionItem' }) as unknown as z.ZodType<RuleConditionItem, unknown>;

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

const LOCAL_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const localTimeSchema = (message: string) => z.string({ error: message }).regex(LOCAL_TIME, message);

/**
 * A timed hold: the paused entity is resumed after some hours, or at the next occurrence of a local time in the ad
 * account's time zone, unless its status was changed since the pause.
 */
export const resumeAfterSchema = z.union(
  [
    z.strictObject({
      hours: z
        .number({ error: M.resumeAfterHoursInvalid })
        .int(M.resumeAfterHoursInvalid)
        .min(1, M.resumeAfterHoursInvalid)
        .max(RULE_LIMITS.resumeAfterHoursMax, M.resumeAfterHoursInvalid),
    }),
    z.strictObject({ atLocalTime: localTimeSchema(M.resumeAfterTimeInvalid) }),
  ],
  {
    error: (issue) => {
      const input = issue.input as Record<string, unknown> | undefined;
      if (input && typeof input === 'object' && 'hours' in input && !('atLocalTime' in input)) {
        return M.resumeAfterHoursInvalid;
      }
      if (input && typeof input === 'object' && 'atLocalTime' in input && !('hours' in input)) {
        return M.resumeAfterTimeInvalid;
      }
      return M.resumeAfterInvalid;
    },
  },
);
export type ResumeAfter = z.output<typeof resumeAfterSchema>;

const QUARTER_HOUR = /^(([01]\d|2[0-3]):(00|15|30|45)|24:00)$/;
const quarterHourSchema = z.string({ error: M.boostWindowInvalid }).regex(QUARTER_HOUR, M.boostWindowInvalid);

/**
 * A budget boost for a window (ADR 0191): Meta's budget schedule ("high demand period") on the entity's own budget,
 * raised by a percentage (MULTIPLIER) or an amount in major units (ABSOLUTE) from `from` to `to`, local times of the
 * ad account on quarter hours, the next time that window is ahead or under way.
 */
const boostBudgetSchema = z
  .strictObject({
    type: z.literal('boost_budget'),
    by: z.number({ error: M.amountPositive }).refine(Number.isFinite, M.amountPositive),
    unit: z.enum(['percent', 'amount'], { error: M.unitInvalid }),
    from: quarterHourSchema,
    to: quarterHourSchema,
  })
  .superRefine((action, ctx) => {
    if (!(action.by > 0)) {
      ctx.addIssue({
        code: 'custom',
        message: action.unit === 'percent' ? M.percentOutOfRange : M.amountPositive,
        path: ['by'],
      });
    } else if (action.unit === 'percent' && (action.by > RULE_LIMITS.percentMax || !Number.isInteger(action.by))) {
      ctx.addIssue({ code: 'custom', message: M.percentOutOfRange, path: ['by'] });
    }
    if (
      action.from === '24:00' ||
      (QUARTER_HOUR.test(action.from) &&
        QUARTER_HOUR.test(action.to) &&
        windowMinutes(action.to) <= windowMinutes(action.from))
    ) {
      ctx.addIssue({ code: 'custom', message: M.boostWindowInvalid, path: ['to'] });
    }
  });

export const ruleActionSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('pause'), resumeAfter: resumeAfterSchema.optional() }),
    z.strictObject({ type: z.literal('resume') }),
    budgetChangeSchema,
    z.strictObject({ type: z.literal('set_budget'), amount: money(M.amountPositive) }),
    boostBudgetSchema,
    z.strictObject({
      type: z.literal('notify'),
      message: text({ trim: true, multiline: true }).max(RULE_LIMITS.notifyMessageMax, M.notifyMessageMax).optional(),
    }),
  ],
  { error: M.actionTypeUnknown },
);
export type RuleAction = z.output<typeof ruleActionSchema>;
export type BudgetChangeAction = Extract<RuleAction, { type: 'increase_budget' | 'decrease_budget' }>;
export type BoostBudgetAction = Extract<RuleAction, { type: 'boost_budget' }>;

const WINDOW_BOUND = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** Minutes since local midnight of an HH:MM window bound ("24:00" is the day's end). */
export function windowMinutes(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/**
 * A dayparting window (ADR 0127): ISO weekdays (1 = Monday) and local hours in the ad account's time zone. The
 * rule pauses its entities when a window ends and resumes them when the next one starts.
 */
export const daypartWindowSchema = z
  .strictObject({
    days: z
      .array(
        z
          .number({ error: M.windowDaysInvalid })
          .int(M.windowDaysInvalid)
          .min(1, M.windowDaysInvalid)
          .max(7, M.windowDaysInvalid),
        {
          error: M.windowDaysInvalid,
        },
      )
      .min(1, M.windowDaysInvalid)
      .refine((days) => new Set(days).size === days.length, M.windowDaysInvalid),
    from: localTimeSchema(M.windowTimeInvalid),
    to: z.string({ error: M.windowTimeInvalid }).regex(WINDOW_BOUND, M.windowTimeInvalid),
  })
  // Only bounds that are times are put in order: a bad one has its own message already.
  .refine(
    (window) =>
      !LOCAL_TIME.test(window.from) ||
      !WINDOW_BOUND.test(window.to) ||
      windowMinutes(window.to) > windowMinutes(window.from),
    { message: M.windowOrder, path: ['to'] },
  );
export type DaypartWindow = z.output<typeof daypartWindowSchema>;

export const ruleScheduleSchema = z.union(
  [
    z.strictObject({
      everyMinutes: z.union(
        RULE_SCHEDULE_MINUTES.map((minutes) => z.literal(minutes)),
        { error: M.everyMinutesInvalid },
      ),
    }),
    z.strictObject({
      dailyAt: localTimeSchema(M.dailyAtInvalid),
    }),
    z.strictObject({
      windows: z
        .array(daypartWindowSchema, { error: M.windowsInvalid })
        .min(1, M.windowsInvalid)
        // A refinement, not .max(): the union then keeps this branch's own message on its field.
        .refine((windows) => windows.length <= RULE_LIMITS.windowsMax, M.windowsInvalid),
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
      if (input && typeof input === 'object' && 'windows' in input && Object.keys(input).length === 1) {
        return M.windowsInvalid;
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
  /** Hours every rule leaves alone an entity whose status or budget changed outside AdPilot; 0 turns it off. */
  respectManualChangesHours: wholeNumber(
    0,
    RULE_LIMITS.respectManualChangesHoursMax,
    M.respectManualChangesInvalid,
  ).default(RULE_SAFEGUARD_DEFAULTS.respectManualChangesHours),
});
export type RuleSafeguards = z.output<typeof ruleSafeguardsSchema>;

export const ruleScopeSchema = z.strictObject({
  /** Empty: every ad account of the caller. */
  adAccountIds: z
    .array(z.uuid({ error: M.adAccountIdInvalid }))
    .max(RULE_LIMITS.adAccountsMax, M.adAccountsMax)
    .default([]),
  level: z.enum(ENTITY_LEVELS, { error: M.levelInvalid }),
  nameContains: text({ required: M.nameContainsInvalid, trim: true })
    .min(1, M.nameContainsInvalid)
    .max(RULE_LIMITS.nameContainsMax, M.nameContainsInvalid)
    .optional(),
  statuses: z.array(z.enum(RULE_ENTITY_STATUSES, { error: M.statusInvalid })).optional(),
});
export type RuleScope = z.output<typeof ruleScopeSchema>;

const ruleFields = {
  name: text({ required: M.nameRequired, trim: true }).min(1, M.nameRequired).max(RULE_LIMITS.nameMax, M.nameMax),
  description: text({ required: M.descriptionMax, trim: true, multiline: true }).max(
    RULE_LIMITS.descriptionMax,
    M.descriptionMax,
  ),
  isActive: z.boolean(),
  scope: ruleScopeSchema,
  conditions: ruleConditionsSchema,
  actions: z.array(ruleActionSchema, { error: M.actionsEmpty }).min(1, M.actionsEmpty),
  schedule: ruleScheduleSchema,
  safeguards: ruleSafeguardsSchema,
  mode: z.enum(RULE_MODES, { error: M.modeInvalid }),
  approvalHours: wholeNumber(RULE_LIMITS.approvalHoursMin, RULE_LIMITS.approvalHoursMax, M.approvalHoursInvalid),
};

/** A campaign has no parent campaign to compare with; only an ad has a fatigue score. */
function checkLevelConditions(
  level: string,
  group: RuleConditionGroup,
  path: (string | number)[],
  ctx: z.RefinementCtx,
): void {
  group.items.forEach((item, index) => {
    const at = [...path, 'items', index];
    if (isConditionGroup(item)) checkLevelConditions(level, item, at, ctx);
    else if (item.compare === 'campaign' && level === 'campaign') {
      ctx.addIssue({ code: 'custom', message: M.compareCampaignAtCampaign, path: [...at, 'compare'] });
    } else if (item.metric === 'fatigue' && level !== 'ad') {
      ctx.addIssue({ code: 'custom', message: M.fatigueAtAdLevel, path: [...at, 'metric'] });
    }
  });
}

/** Checks that need the scope and the actions (or the conditions) together. */
function checkActions(
  rule: {
    scope?: { level: string };
    actions?: RuleAction[];
    conditions?: RuleConditionGroup;
    schedule?: RuleSchedule;
  },
  ctx: z.RefinementCtx,
): void {
  if (rule.scope && rule.conditions) checkLevelConditions(rule.scope.level, rule.conditions, ['conditions'], ctx);
  const actions = rule.actions ?? [];
  let budgetActions = 0;
  actions.forEach((action, index) => {
    if (action.type === 'boost_budget' && rule.scope?.level === 'ad') {
      ctx.addIssue({ code: 'custom', message: M.budgetActionAtAdLevel, path: ['actions', index, 'type'] });
    }
    if (!isBudgetAction(action)) return;
    budgetActions += 1;
    if (rule.scope?.level === 'ad') {
      ctx.addIssue({ code: 'custom', message: M.budgetActionAtAdLevel, path: ['actions', index, 'type'] });
    } else if (budgetActions > 1) {
      ctx.addIssue({ code: 'custom', message: M.oneBudgetAction, path: ['actions', index, 'type'] });
    }
  });
  if (rule.schedule && 'windows' in rule.schedule) checkDayparting(actions, ctx);
  const resumeAt = actions.findIndex((action) => action.type === 'resume');
  if (resumeAt >= 0 && actions.some((action) => action.type === 'pause')) {
    ctx.addIssue({ code: 'custom', message: M.pauseAndResume, path: ['actions', resumeAt, 'type'] });
  }
}

/** A dayparting rule pauses at a window's end, and its resume is the next window's start (not resumeAfter). */
function checkDayparting(actions: RuleAction[], ctx: z.RefinementCtx): void {
  const pauseAt = actions.findIndex((action) => action.type === 'pause');
  const pause = actions[pauseAt];
  if (!pause) ctx.addIssue({ code: 'custom', message: M.daypartNeedsPause, path: ['actions'] });
  else if (pause.type === 'pause' && pause.resumeAfter !== undefined)
    ctx.addIssue({ code: 'custom', message: M.daypartResumeAfter, path: ['actions', pauseAt, 'resumeAfter'] });
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
    // Absent: the rule writes its changes itself, as every rule did before modes.
    mode: ruleFields.mode.default('auto'),
    approvalHours: ruleFields.approvalHours.default(RULE_APPROVAL_HOURS_DEFAULT),
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
    mode: ruleFields.mode.optional(),
    approvalHours: ruleFields.approvalHours.optional(),
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
  mode: z.enum(RULE_MODES),
  /** How long a proposal of this rule waits for a decision (approve mode). */
  approvalHours: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When an action of this rule last ran; null until one has. */
  lastTriggered: z.string().nullable(),
  warnings: z.array(ruleWarningSchema),
});
export type Rule = z.infer<typeof ruleSchema>;
