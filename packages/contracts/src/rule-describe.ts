import type { ActionSkip, CodeParams, NotJudged, RuleWarning } from './rule-codes.ts';
import type {
  ActionPlan,
  ConditionTrace,
  Explanation,
  GroupTrace,
  PlannedChange,
  RuleEntityRef,
} from './rule-results.ts';
import { STATE_METRICS, type RuleMetric, type RuleOperator, type RuleWindow } from './rule-constants.ts';

/**
 * Plain English for the activity log's description, rendered from the stored codes and values. The web renders
 * the same codes from its own English and Thai catalogues; these words are never stored as the truth.
 */

export const METRIC_LABELS_EN: Record<RuleMetric, string> = {
  spend: 'Spend',
  impressions: 'Impressions',
  reach: 'Reach',
  frequency: 'Frequency',
  clicks: 'Clicks',
  link_clicks: 'Link clicks',
  ctr: 'CTR (%)',
  cpc: 'CPC',
  cpm: 'CPM',
  conversions: 'Conversions',
  cpa: 'CPA',
  conversion_value: 'Conversion value',
  roas: 'ROAS',
  daily_budget: 'Daily budget',
  lifetime_budget: 'Lifetime budget',
  hours_since_creation: 'Hours since creation',
  fatigue: 'Fatigue score',
  month_spend: 'Spend this month',
  projected_month_spend: 'Projected month-end spend',
};

export const WINDOW_LABELS_EN: Record<RuleWindow, string> = {
  today: 'today',
  yesterday: 'yesterday',
  last_3d: 'the last 3 days',
  last_7d: 'the last 7 days',
  last_14d: 'the last 14 days',
  last_30d: 'the last 30 days',
  lifetime: 'its lifetime',
};

export const OPERATOR_SYMBOLS: Record<RuleOperator, string> = {
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  eq: '=',
  neq: '≠',
  between: 'between',
};

const LEVEL_EN = { campaign: 'campaign', adset: 'ad set', ad: 'ad' } as const;

/** Up to two decimals, without locale grouping: the same text on every machine. */
export function formatFigure(value: number | null): string {
  if (value === null) return 'no value';
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function windowText(trace: Pick<ConditionTrace, 'metric' | 'window' | 'includeToday'>): string {
  if (STATE_METRICS.has(trace.metric)) return '';
  const today = trace.includeToday && trace.window.startsWith('last_') ? ' including today' : '';
  const over = trace.window === 'today' || trace.window === 'yesterday' ? '' : 'over ';
  return ` ${over}${WINDOW_LABELS_EN[trace.window]}${today}`;
}

/** A change in %, signed: "+52 %", "−18 %" (a true minus, as Intl writes it). */
export function formatChange(value: number | null): string {
  if (value === null) return 'no value';
  const rounded = Math.round(value);
  return `${rounded > 0 ? '+' : rounded < 0 ? '\u2212' : ''}${Math.abs(rounded)} %`;
}

const PERIOD_BEFORE_EN: Record<ConditionTrace['window'], string> = {
  today: 'yesterday',
  yesterday: 'the day before',
  last_3d: 'the 3 days before',
  last_7d: 'the 7 days before',
  last_14d: 'the 14 days before',
  last_30d: 'the 30 days before',
  lifetime: 'before',
};

/**
 * "CPA over the last 7 days is 612 vs 402 the 7 days before: +52 %, > +50 %: held";
 * "CPA over the last 7 days is 612, > 1.5 × the account's 402 (603): held".
 */
function describeRelative(trace: ConditionTrace, relative: NonNullable<ConditionTrace['relative']>): string {
  const subject = `${METRIC_LABELS_EN[trace.metric]}${windowText(trace)}`;
  const symbol = OPERATOR_SYMBOLS[trace.operator];
  if (relative.compare === 'previous_period') {
    const threshold = Array.isArray(trace.compareTo)
      ? `${formatChange(trace.compareTo[0])} and ${formatChange(trace.compareTo[1])}`
      : formatChange(trace.compareTo);
    return `${subject} is ${formatFigure(relative.current)} vs ${formatFigure(relative.reference)} ${PERIOD_BEFORE_EN[trace.window]}: ${formatChange(trace.value)}, ${symbol} ${threshold}: ${RESULT_EN[trace.result]}`;
  }
  const whose = relative.compare === 'account' ? "the account's" : "the campaign's";
  const factor = relative.factor === null || relative.factor === 1 ? '' : `${formatFigure(relative.factor)} × `;
  return `${subject} is ${formatFigure(trace.value)}, ${symbol} ${factor}${whose} ${formatFigure(relative.reference)} (${formatFigure(trace.compareTo as number | null)}): ${RESULT_EN[trace.result]}`;
}

function compareText(trace: ConditionTrace): string {
  const symbol = OPERATOR_SYMBOLS[trace.operator];
  if (trace.against) {
    const label = METRIC_LABELS_EN[trace.against.metric];
    const factor = trace.against.factor === 1 ? '' : `${formatFigure(trace.against.factor)} × `;
    return `${symbol} ${factor}${label} (${formatFigure(trace.compareTo as number | null)})`;
  }
  if (Array.isArray(trace.compareTo)) {
    return `${symbol} ${formatFigure(trace.compareTo[0])} and ${formatFigure(trace.compareTo[1])}`;
  }
  return `${symbol} ${formatFigure(trace.compareTo)}`;
}

const RESULT_EN: Record<ConditionTrace['result'], string> = {
  held: 'held',
  failed: 'did not hold',
  undefined: 'has no value, so it does not hold',
  settling: "waits for today's figures to settle",
};

/** "CPA over the last 7 days is 620.50, > 500: held". */
export function describeCondition(trace: ConditionTrace): string {
  if (trace.relative) return describeRelative(trace, trace.relative);
  const subject = `${METRIC_LABELS_EN[trace.metric]}${windowText(trace)}`;
  return `${subject} is ${formatFigure(trace.value)}, ${compareText(trace)}: ${RESULT_EN[trace.result]}`;
}

function leaves(group: GroupTrace): ConditionTrace[] {
  return group.items.flatMap((item) => (item.kind === 'group' ? leaves(item) : [item]));
}

const NOT_JUDGED_EN: Record<NotJudged['code'], (p: CodeParams) => string> = {
  min_spend_not_reached: (p) =>
    `Not judged yet: spend ${formatFigure(num(p.spend))} is under the minimum ${formatFigure(num(p.minimum))}`,
  min_impressions_not_reached: (p) =>
    `Not judged yet: ${formatFigure(num(p.impressions))} impressions, under the minimum ${formatFigure(num(p.minimum))}`,
};

function num(value: CodeParams[string] | undefined): number | null {
  return typeof value === 'number' ? value : null;
}

/** The decision in one sentence: the conditions that made it (held ones when matched, failing ones otherwise). */
export function describeExplanation(explanation: Explanation): string {
  if (explanation.notJudged) return NOT_JUDGED_EN[explanation.notJudged.code](explanation.notJudged.params);
  const all = explanation.conditions ? leaves(explanation.conditions) : [];
  const matched = explanation.decision === 'matched';
  const shown = all.filter((trace) => (trace.result === 'held') === matched);
  const head = matched ? 'Matched' : 'Not matched';
  return shown.length ? `${head}: ${shown.map(describeCondition).join('; ')}` : head;
}

const SKIP_EN: Record<ActionSkip['code'], (p: CodeParams) => string> = {
  cooldown: (p) => `in its ${p.hours}-hour cooldown until ${p.until}`,
  max_actions_per_day: (p) => `the rule already took ${p.count} of its ${p.limit} actions in the last 24 hours`,
  budget_change_limit: (p) => `Meta allows ${p.limit} budget changes per hour on one budget; wait until ${p.until}`,
  already_paused: () => 'already paused',
  already_active: () => 'already active',
  at_ceiling: (p) =>
    `the budget ${formatFigure(num(p.current))} is at or above the ceiling ${formatFigure(num(p.ceiling))}`,
  at_floor: (p) => `the budget ${formatFigure(num(p.current))} is at or below the floor ${formatFigure(num(p.floor))}`,
  at_account_minimum: (p) =>
    `the budget ${formatFigure(num(p.current))} is at the account's minimum daily budget ${formatFigure(num(p.minimum))}`,
  ceiling_below_account_minimum: (p) =>
    `the ceiling ${formatFigure(num(p.ceiling))} is under the account's minimum daily budget ${formatFigure(num(p.minimum))}`,
  below_account_minimum: (p) =>
    `${formatFigure(num(p.amount))} is under the account's minimum daily budget ${formatFigure(num(p.minimum))}`,
  unchanged: (p) => `the budget would stay ${formatFigure(num(p.current))}`,
  no_budget: (p) => `the ${LEVEL_EN[p.holderLevel as keyof typeof LEVEL_EN] ?? 'entity'} holding the budget has none`,
  no_budget_holder: () => "this campaign's budgets are on its ad sets",
  budget_holder_planned: () => 'another matching entity already changes the same budget in this run',
  not_editable: (p) => `its status ${p.status} cannot be changed`,
  conflicting_rule: (p) => `rule "${p.ruleName}" did the opposite less than ${p.hours} hours ago (until ${p.until})`,
  external_change: (p) => `changed outside AdPilot at ${p.at}; rules leave it alone until ${p.until}`,
  boost_no_own_budget: (p) =>
    `a boost needs the ${LEVEL_EN[p.level as keyof typeof LEVEL_EN] ?? 'entity'}'s own budget, and its budget is on the ${LEVEL_EN[p.holderLevel as keyof typeof LEVEL_EN] ?? 'other level'}`,
};

export function describeSkip(skip: ActionSkip): string {
  return SKIP_EN[skip.code](skip.params);
}

export function describeChange(change: PlannedChange): string {
  if (change.field === 'status') return `${change.from} → ${change.to}`;
  if (change.field === 'budget_schedule') {
    const label = change.budgetField === 'daily_budget' ? 'daily budget' : 'lifetime budget';
    return `${label} ${formatFigure(change.from)} → ${formatFigure(change.to)} from ${change.timeStart} to ${change.timeEnd}`;
  }
  const label = change.field === 'daily_budget' ? 'daily budget' : 'lifetime budget';
  return `${label} ${formatFigure(change.from)} → ${formatFigure(change.to)}`;
}

const ACTION_VERB_EN: Record<ActionPlan['type'], string> = {
  pause: 'Pause',
  resume: 'Resume',
  increase_budget: 'Raise the budget of',
  decrease_budget: 'Lower the budget of',
  set_budget: 'Set the budget of',
  boost_budget: 'Boost the budget of',
  notify: 'Notify about',
};

function entityText(entity: Pick<RuleEntityRef, 'level' | 'name'>): string {
  return `${LEVEL_EN[entity.level]} “${entity.name}”`;
}

/** "Raise the budget of campaign “Summer” (it holds the budget of ad set “Bangkok”): daily budget 100 → 120". */
export function describeActionPlan(
  plan: ActionPlan,
  entity: Pick<RuleEntityRef, 'level' | 'name' | 'externalId'>,
): string {
  const target = entityText(plan.target);
  const via = plan.target.externalId !== entity.externalId ? ` (it holds the budget of ${entityText(entity)})` : '';
  const head = `${ACTION_VERB_EN[plan.type]} ${target}${via}`;
  if (plan.skip) return `${head}: skipped, ${describeSkip(plan.skip)}`;
  const message = plan.message ? `: ${plan.message}` : '';
  return plan.change ? `${head}: ${describeChange(plan.change)}` : `${head}${message}`;
}

const WARNING_EN: Record<RuleWarning['code'], (p: CodeParams) => string> = {
  budget_increase_without_ceiling: () => 'The budget increase has no ceiling',
  conflicting_rule: (p) => {
    const what =
      p.conflict === 'pause_resume'
        ? 'one pauses what the other resumes'
        : p.conflict === 'budget_direction'
          ? 'one raises budgets the other lowers'
          : 'both change the same budgets';
    return `Rule “${p.ruleName}” touches the same entities: ${what}`;
  },
};

export function describeWarning(warning: RuleWarning): string {
  return WARNING_EN[warning.code](warning.params);
}
