import { z } from 'zod';

/**
 * Every decision of the rule engine is stored and answered as a code with parameters, never as a sentence: the web
 * renders them in English or Thai (its catalogues are keyed by these codes) and `rule-describe.ts` renders the
 * plain English of the activity log's description.
 */

/** How one condition came out. `undefined`: the metric has no value (CPA without conversions), so it does not hold. */
export const CONDITION_RESULTS = ['held', 'failed', 'undefined', 'settling'] as const;
export type ConditionResult = (typeof CONDITION_RESULTS)[number];

/** How the rule came out for one entity. */
export const DECISION_CODES = ['matched', 'not_matched', 'not_judged'] as const;
export type DecisionCode = (typeof DECISION_CODES)[number];

/** Why an entity was not judged at all: too little data yet. */
export const NOT_JUDGED_CODES = ['min_spend_not_reached', 'min_impressions_not_reached'] as const;

/**
 * Why a matched entity's action is not planned. Params per code:
 * - cooldown: { hours, lastAt, until } — this rule did this action on this target less than `hours` ago
 * - max_actions_per_day: { limit, count } — the rule's actions in the last 24 hours
 * - budget_change_limit: { limit, count, until } — Meta's 4 budget changes per hour on one budget
 * - already_paused / already_active: { status }
 * - at_ceiling: { ceiling, current } · at_floor: { floor, current } · at_account_minimum: { minimum, current }
 * - ceiling_below_account_minimum: { ceiling, minimum }
 * - below_account_minimum: { amount, minimum } — a set_budget amount under the account's minimum daily budget
 * - unchanged: { current } — the new budget rounds to the current one
 * - no_budget: { holderLevel, holderId } — the budget holder has neither a daily nor a lifetime budget
 * - no_budget_holder: {} — a campaign without campaign budget optimisation: its budgets live on its ad sets
 * - budget_holder_planned: { holderLevel, holderId, byEntityId } — another entity of this run already moves that budget
 * - not_editable: { status } — archived or deleted entities are never changed
 * - conflicting_rule: { ruleId, ruleName, action, lastAt, until, hours } — another rule did the opposite action
 *   (pause vs resume, raise vs lower budget) on this target less than its own cooldown (`hours`) ago
 * - boost_no_own_budget: { level, holderLevel } — a boost needs the entity's own budget (an ad set under campaign
 *   budget, or a campaign whose ad sets hold the budgets, has none for Meta's budget schedule)
 * - external_change: { hours, at, until, by } — its status or budget was changed outside AdPilot at `at` (by a person
 *   or app, `by` their name or null when Meta does not say), and the rule's safeguard leaves it alone `hours` hours
 */
export const ACTION_SKIP_CODES = [
  'cooldown',
  'max_actions_per_day',
  'budget_change_limit',
  'already_paused',
  'already_active',
  'at_ceiling',
  'at_floor',
  'at_account_minimum',
  'ceiling_below_account_minimum',
  'below_account_minimum',
  'unchanged',
  'no_budget',
  'no_budget_holder',
  'budget_holder_planned',
  'not_editable',
  'conflicting_rule',
  'external_change',
  'boost_no_own_budget',
] as const;
export type ActionSkipCode = (typeof ACTION_SKIP_CODES)[number];

/**
 * Why a budget action lands on another entity than the one judged: `self` (it holds its budget), `campaign_budget`
 * (campaign budget optimisation: the campaign holds it) or `adset_budget` (an ad's budget is its ad set's).
 */
export const BUDGET_HOLDER_REASONS = ['self', 'campaign_budget', 'adset_budget'] as const;
export type BudgetHolderReason = (typeof BUDGET_HOLDER_REASONS)[number];

/**
 * Warnings shown with a rule (not refusals). Params:
 * - budget_increase_without_ceiling: { actionIndex }
 * - conflicting_rule: { ruleId, ruleName, conflict } with conflict one of CONFLICT_KINDS
 */
export const RULE_WARNING_CODES = ['budget_increase_without_ceiling', 'conflicting_rule'] as const;
/** pause_resume: one pauses what the other resumes; budget_direction: one raises what the other lowers. */
export const CONFLICT_KINDS = ['pause_resume', 'budget_direction', 'budget_both'] as const;
export type ConflictKind = (typeof CONFLICT_KINDS)[number];

/** Why an action of a run did not apply (yet). */
export const ACTION_FAILURE_CODES = [
  'meta_rate_limited',
  'meta_error',
  'reauth_required',
  'read_only',
  'entity_missing',
  'live_value_differs',
  'below_account_minimum',
  'status_changed_since_pause',
  'budget_schedule_refused',
] as const;

/** Why a revert is refused (409). */
export const REVERT_REFUSAL_CODES = ['value_changed', 'already_reverted', 'not_revertible', 'not_applied'] as const;
export type RevertRefusalCode = (typeof REVERT_REFUSAL_CODES)[number];

export const codeParamsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type CodeParams = z.infer<typeof codeParamsSchema>;

export const ruleWarningSchema = z.object({ code: z.enum(RULE_WARNING_CODES), params: codeParamsSchema });
export type RuleWarning = z.infer<typeof ruleWarningSchema>;

export const actionSkipSchema = z.object({ code: z.enum(ACTION_SKIP_CODES), params: codeParamsSchema });
export type ActionSkip = z.infer<typeof actionSkipSchema>;

export const notJudgedSchema = z.object({ code: z.enum(NOT_JUDGED_CODES), params: codeParamsSchema });
export type NotJudged = z.infer<typeof notJudgedSchema>;
