/**
 * The vocabulary of the rule format: metrics, windows, operators, action types, limits, defaults and the message
 * of every refusal. The schemas are in rules.ts.
 */

/** Metrics a condition can read. The last six are the entity's state, not delivery over a window. */
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
  'fatigue',
  'month_spend',
  'projected_month_spend',
] as const;
export type RuleMetric = (typeof RULE_METRICS)[number];

/**
 * Metrics that describe the entity now, whatever the condition's window. `fatigue` is an ad's creative fatigue
 * score, 0–100, from its frequency and its CTR and CPM against its own first days (ADR 0122); `month_spend` the
 * spend of this local month's whole days, `projected_month_spend` its month-end at the last 7 days' pace (ADR 0123).
 */
export const STATE_METRICS: ReadonlySet<RuleMetric> = new Set([
  'daily_budget',
  'lifetime_budget',
  'hours_since_creation',
  'fatigue',
  'month_spend',
  'projected_month_spend',
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
  'month_spend',
  'projected_month_spend',
]);

/** Windows in the account's time zone; `last_Nd` are the N whole days before today, plus today with includeToday. */
export const RULE_WINDOWS = ['today', 'yesterday', 'last_3d', 'last_7d', 'last_14d', 'last_30d', 'lifetime'] as const;
export type RuleWindow = (typeof RULE_WINDOWS)[number];

/**
 * What a relative condition compares with (ADR 0121): the same metric over the previous period of equal length
 * (`value` is the change in %), or the account's / the parent campaign's value over the same window (× `factor`).
 */
export const RULE_COMPARISONS = ['previous_period', 'account', 'campaign'] as const;
export type RuleComparison = (typeof RULE_COMPARISONS)[number];

export const RULE_OPERATORS = ['gt', 'gte', 'lt', 'lte', 'eq', 'neq', 'between'] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

export const RULE_ACTION_TYPES = [
  'pause',
  'resume',
  'increase_budget',
  'decrease_budget',
  'set_budget',
  'boost_budget',
  'notify',
] as const;
export type RuleActionType = (typeof RULE_ACTION_TYPES)[number];
export const BUDGET_ACTION_TYPES: ReadonlySet<RuleActionType> = new Set([
  'increase_budget',
  'decrease_budget',
  'set_budget',
]);

export const RULE_MATCH_MODES = ['all', 'any'] as const;

/**
 * What a run does with its planned changes: `auto` writes them to Meta, `approve` turns each into a proposal a
 * person approves or rejects (nothing is written until then), `notify` logs and sends them and never writes.
 */
export const RULE_MODES = ['auto', 'approve', 'notify'] as const;
export type RuleMode = (typeof RULE_MODES)[number];
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
  /** A week: how long a rule may leave alone what a person changed outside AdPilot. */
  respectManualChangesHoursMax: 168,
  backtestDaysMax: 90,
  backtestDaysDefault: 30,
  /** A pause's `resumeAfter.hours`: up to a week. */
  resumeAfterHoursMax: 168,
  /** Dayparting windows of one schedule (two a day for a week). */
  windowsMax: 14,
  approvalHoursMin: 1,
  approvalHoursMax: 168,
} as const;

/** A proposal waits this many hours for a decision unless the rule says otherwise. */
export const RULE_APPROVAL_HOURS_DEFAULT = 24;

export const RULE_SAFEGUARD_DEFAULTS = {
  cooldownHours: 24,
  maxActionsPerDay: 20,
  minSpend: 0,
  minImpressions: 0,
  settleHours: 0,
  respectManualChangesHours: 24,
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
  compareUnknown: `Unknown comparison: use one of ${RULE_COMPARISONS.join(', ')}`,
  compareStateMetric: 'Budgets and age have no earlier period or account value to compare with',
  compareLifetime: 'Lifetime has no previous period: pick a window of days',
  compareNeedsNumber: 'Against the previous period the value is a change in % (a number, or [low, high] for between)',
  compareNeedsFactor: 'Against the account or the campaign, give a factor (e.g. 1.5) and no value',
  factorNeedsCompare: 'A factor alone needs compare: account or campaign',
  valueRequired: 'The value is required',
  fatigueAtAdLevel: 'The fatigue score is an ad’s: use it at the ad level',
  compareCampaignAtCampaign: 'A campaign has no parent campaign: compare with the account instead',
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
  boostWindowInvalid: 'A boost runs from HH:MM to HH:MM (up to 24:00) on quarter hours, and ends after it starts',
  oneBudgetAction: 'A rule changes a budget with one action at most',
  pauseAndResume: 'A rule cannot both pause and resume',
  resumeAfterInvalid: 'Resume after is { hours: 1 to 168 } or { atLocalTime: "HH:MM" }',
  resumeAfterHoursInvalid: `Resume after 1 to ${RULE_LIMITS.resumeAfterHoursMax} whole hours`,
  resumeAfterTimeInvalid: 'The resume time must be HH:MM between 00:00 and 23:59',
  notifyMessageMax: `The message must be at most ${RULE_LIMITS.notifyMessageMax} characters`,
  scheduleInvalid:
    'The schedule is { everyMinutes: 5, 15, 30 or 60 }, { dailyAt: "HH:MM" } or { windows: [{ days, from, to }] }',
  everyMinutesInvalid: 'Run every 5, 15, 30 or 60 minutes',
  dailyAtInvalid: 'The time must be HH:MM between 00:00 and 23:59',
  windowsInvalid: `Dayparting needs 1 to ${RULE_LIMITS.windowsMax} windows`,
  windowDaysInvalid: 'Name each day of the week once, 1 (Monday) to 7 (Sunday)',
  windowTimeInvalid: 'The window runs from HH:MM (00:00 to 23:59) to HH:MM (up to 24:00)',
  windowOrder: 'The window must end after it starts',
  daypartNeedsPause: 'A dayparting rule pauses outside its windows: add a pause action',
  daypartResumeAfter: 'A dayparting rule resumes at its next window start: remove "resume after"',
  cooldownInvalid: `The cooldown is 0 to ${RULE_LIMITS.cooldownHoursMax} whole hours`,
  maxActionsInvalid: `Actions per day must be a whole number from 1 to ${RULE_LIMITS.maxActionsPerDayMax}`,
  minSpendInvalid: 'The minimum spend must be 0 or more',
  minImpressionsInvalid: 'The minimum impressions must be a whole number, 0 or more',
  settleHoursInvalid: `Settle hours are 0 to ${RULE_LIMITS.settleHoursMax} whole hours`,
  respectManualChangesInvalid: `Hours to leave a changed entity alone are 0 to ${RULE_LIMITS.respectManualChangesHoursMax} whole hours`,
  nothingToUpdate: 'Nothing to update',
  modeInvalid: 'The mode must be auto, approve or notify',
  approvalHoursInvalid: `Approval hours must be a whole number from ${RULE_LIMITS.approvalHoursMin} to ${RULE_LIMITS.approvalHoursMax}`,
  backtestDaysInvalid: `Days must be a whole number from 1 to ${RULE_LIMITS.backtestDaysMax}`,
  activeRuleLimit: 'Your plan allows no more active rules. Upgrade your plan on the Subscription page.',
} as const;
