import { z } from 'zod';
import { ENTITY_LEVELS } from './metrics.ts';
import {
  ACTION_FAILURE_CODES,
  BUDGET_HOLDER_REASONS,
  CONDITION_RESULTS,
  DECISION_CODES,
  actionSkipSchema,
  codeParamsSchema,
  notJudgedSchema,
  ruleWarningSchema,
} from './rule-codes.ts';
import { RULE_ACTION_TYPES, RULE_COMPARISONS, RULE_LIMITS, RULE_MATCH_MODES, RULE_MESSAGES } from './rule-constants.ts';
import { ruleMetricSchema, ruleOperatorSchema, ruleWindowSchema } from './rules.ts';

/** What the engine decided and why, as the preview, the backtest, the run history and the log show it. */

/** An ad entity as the answers name it (`externalId` is Meta's id). */
export const ruleEntityRefSchema = z.object({
  adAccountId: z.string(),
  level: z.enum(ENTITY_LEVELS),
  externalId: z.string(),
  name: z.string(),
});
export type RuleEntityRef = z.infer<typeof ruleEntityRefSchema>;

/** One condition with the values it was judged on; `path` is the item's position, e.g. "1.0". */
export const conditionTraceSchema = z.object({
  kind: z.literal('condition'),
  path: z.string(),
  metric: ruleMetricSchema,
  window: ruleWindowSchema,
  includeToday: z.boolean(),
  operator: ruleOperatorSchema,
  /** The entity's value; null when undefined (CPA with no conversions). */
  value: z.number().nullable(),
  /** What it was compared with: the number, the range, or the other metric × factor (null when undefined). */
  compareTo: z.union([z.number(), z.tuple([z.number(), z.number()])]).nullable(),
  /** Set when the condition compares with another metric. */
  against: z.object({ metric: ruleMetricSchema, factor: z.number(), value: z.number().nullable() }).nullable(),
  /**
   * Set for a relative condition (ADR 0121): the metric now (`current`) and what it is measured against
   * (`reference`: the previous period's value, or the account's / campaign's over the same window). Against the
   * previous period `value` is the change in % and `compareTo` the % of the condition; against the account or the
   * campaign `value` is the metric and `compareTo` factor × reference.
   */
  relative: z
    .object({
      compare: z.enum(RULE_COMPARISONS),
      current: z.number().nullable(),
      reference: z.number().nullable(),
      factor: z.number().nullable(),
    })
    .nullable()
    .optional(),
  result: z.enum(CONDITION_RESULTS),
});
export type ConditionTrace = z.infer<typeof conditionTraceSchema>;

export type GroupTrace = {
  kind: 'group';
  path: string;
  match: (typeof RULE_MATCH_MODES)[number];
  held: boolean;
  items: (ConditionTrace | GroupTrace)[];
};

export const groupTraceSchema: z.ZodType<GroupTrace> = z
  .object({
    kind: z.literal('group'),
    path: z.string(),
    match: z.enum(RULE_MATCH_MODES),
    held: z.boolean(),
    get items() {
      return z.array(z.union([conditionTraceSchema, groupTraceSchema]));
    },
    // Named, so the API document can refer to the recursion instead of leaving a reference it never defines.
  })
  .meta({ id: 'GroupTrace' });

/** The decision for one entity: matched, not matched, or not judged (too little data), with the whole tree. */
export const explanationSchema = z.object({
  decision: z.enum(DECISION_CODES),
  notJudged: notJudgedSchema.nullable(),
  /** True when today's figures were left out because the local day is younger than the settle hours. */
  settling: z.boolean(),
  conditions: groupTraceSchema.nullable(),
});
export type Explanation = z.infer<typeof explanationSchema>;

/** A change from → to. Budgets in major units (for people) and minor units (what Meta is sent). */
export const plannedChangeSchema = z.discriminatedUnion('field', [
  z.object({ field: z.literal('status'), from: z.string(), to: z.enum(['ACTIVE', 'PAUSED']) }),
  z.object({
    field: z.enum(['daily_budget', 'lifetime_budget']),
    from: z.number(),
    to: z.number(),
    fromMinor: z.number().int(),
    toMinor: z.number().int(),
  }),
  /**
   * A budget boost (ADR 0191): the entity's own budget `from` → `to` during the window, as Meta's budget schedule
   * `budgetValue` of `budgetValueType` (MULTIPLIER: the increase in %, ABSOLUTE: the increase in minor units).
   */
  z.object({
    field: z.literal('budget_schedule'),
    budgetField: z.enum(['daily_budget', 'lifetime_budget']),
    from: z.number(),
    to: z.number(),
    fromMinor: z.number().int(),
    toMinor: z.number().int(),
    budgetValue: z.number().int(),
    budgetValueType: z.enum(['ABSOLUTE', 'MULTIPLIER']),
    timeStart: z.string(),
    timeEnd: z.string(),
    /** Meta's id of the schedule once it was made (the ledger's records only). */
    scheduleId: z.string().nullable().optional(),
  }),
]);
export type PlannedChange = z.infer<typeof plannedChangeSchema>;

/** One action of the rule for one matched entity: planned with its change, or skipped with the reason. */
export const actionPlanSchema = z.object({
  actionIndex: z.number().int(),
  type: z.enum(RULE_ACTION_TYPES),
  /** Who is changed: the entity itself, or for a budget its budget holder. */
  target: ruleEntityRefSchema,
  holderReason: z.enum(BUDGET_HOLDER_REASONS).nullable(),
  outcome: z.enum(['planned', 'skipped']),
  change: plannedChangeSchema.nullable(),
  skip: actionSkipSchema.nullable(),
  /** The notify action's own text, when it has one. */
  message: z.string().nullable(),
});
export type ActionPlan = z.infer<typeof actionPlanSchema>;

export const metricValueSchema = z.object({
  metric: ruleMetricSchema,
  window: ruleWindowSchema,
  includeToday: z.boolean(),
  value: z.number().nullable(),
});

export const entityDecisionSchema = z.object({
  entity: ruleEntityRefSchema.extend({ status: z.string(), effectiveStatus: z.string() }),
  matched: z.boolean(),
  /** Every metric the conditions read, once each. */
  values: z.array(metricValueSchema),
  explanation: explanationSchema,
  actions: z.array(actionPlanSchema),
});
export type EntityDecision = z.infer<typeof entityDecisionSchema>;

/** POST /api/rules/preview and /api/rules/:id/preview. */
export const rulePreviewSchema = z.object({
  evaluatedAt: z.string(),
  entities: z.array(entityDecisionSchema),
  totals: z.object({
    evaluated: z.number().int(),
    matched: z.number().int(),
    planned: z.number().int(),
    skipped: z.number().int(),
  }),
  warnings: z.array(ruleWarningSchema),
});
export type RulePreview = z.infer<typeof rulePreviewSchema>;

export const backtestRequestSchema = z.strictObject({
  days: z
    .number({ error: RULE_MESSAGES.backtestDaysInvalid })
    .int(RULE_MESSAGES.backtestDaysInvalid)
    .min(1, RULE_MESSAGES.backtestDaysInvalid)
    .max(RULE_LIMITS.backtestDaysMax, RULE_MESSAGES.backtestDaysInvalid)
    .default(RULE_LIMITS.backtestDaysDefault),
});

/** A change the rule would have made on a replayed day. */
export const backtestFiringSchema = z.object({
  entity: ruleEntityRefSchema,
  target: ruleEntityRefSchema,
  type: z.enum(RULE_ACTION_TYPES),
  holderReason: z.enum(BUDGET_HOLDER_REASONS).nullable(),
  change: plannedChangeSchema.nullable(),
});
export type BacktestFiring = z.infer<typeof backtestFiringSchema>;

export const backtestDaySchema = z.object({
  /** The account's local date the rule was replayed at (at the end of that day). */
  date: z.string(),
  evaluated: z.number().int(),
  matched: z.number().int(),
  firings: z.array(backtestFiringSchema),
  /** The sum of the daily budgets the rule had changed, after that day's firings (major units), per currency. */
  budgets: z.record(z.string(), z.number()),
});
export type BacktestDay = z.infer<typeof backtestDaySchema>;

export const backtestTotalsSchema = z.object({
  firings: z.number().int(),
  byType: z.record(z.string(), z.number().int()),
  entitiesAffected: z.number().int(),
  /** The net change of daily budgets over the replay (major units), per currency. */
  budgetChange: z.record(z.string(), z.number()),
});

/** POST /api/rules/:id/backtest. */
export const ruleBacktestSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(backtestDaySchema),
  totals: backtestTotalsSchema,
});
export type RuleBacktest = z.infer<typeof ruleBacktestSchema>;

export const RULE_RUN_TRIGGERS = ['schedule', 'manual'] as const;
export const RULE_RUN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export const RULE_RUN_ERROR_CODES = ['refresh_failed', 'reauth_required', 'internal_error'] as const;
/**
 * A ledger row's status on the rule's history: `proposed` waits for a person (approve mode), `rejected`, `expired`
 * and `stale` are proposals closed without a write, `notified` a decision only logged and sent (notify mode).
 */
export const RULE_ACTION_STATUSES = [
  'pending',
  'applied',
  'failed',
  'postponed',
  'reverted',
  'proposed',
  'rejected',
  'expired',
  'stale',
  'notified',
] as const;

/** One row of the action ledger as the rule's history shows it. */
/**
 * Who made a ledger row: a rule, a person acting by hand, or an agent's credential acting for its creator (ADR
 * 0160). `name` is copied from the user or credential record, never typed text; `id` is the user's or credential's
 * (a rule: its id).
 */
export const LEDGER_ACTOR_TYPES = ['rule', 'person', 'agent'] as const;
export const ledgerActorSchema = z.object({
  type: z.enum(LEDGER_ACTOR_TYPES),
  id: z.uuid().nullable(),
  name: z.string().nullable(),
});
export type LedgerActor = z.infer<typeof ledgerActorSchema>;

export const ruleActionRecordSchema = z.object({
  id: z.uuid(),
  /** Null for a change by hand (see `actor`). */
  runId: z.uuid().nullable(),
  ruleId: z.uuid().nullable(),
  actor: ledgerActorSchema,
  entity: ruleEntityRefSchema,
  target: ruleEntityRefSchema,
  type: z.enum(RULE_ACTION_TYPES),
  holderReason: z.enum(BUDGET_HOLDER_REASONS).nullable(),
  change: plannedChangeSchema.nullable(),
  status: z.enum(RULE_ACTION_STATUSES),
  failure: z.object({ code: z.enum(ACTION_FAILURE_CODES), params: codeParamsSchema }).nullable(),
  explanation: explanationSchema,
  createdAt: z.string(),
  appliedAt: z.string().nullable(),
  revertedAt: z.string().nullable(),
  /** Applied, a status or budget change, and not reverted yet. */
  revertible: z.boolean(),
});
export type RuleActionRecord = z.infer<typeof ruleActionRecordSchema>;

/** A matched entity's action a safeguard held back in a run, with the engine's reason: why nothing was applied. */
export const runSkipSchema = z.object({
  entity: ruleEntityRefSchema,
  type: z.enum(RULE_ACTION_TYPES),
  skip: actionSkipSchema,
});
export type RunSkip = z.infer<typeof runSkipSchema>;

export const ruleRunSchema = z.object({
  id: z.uuid(),
  ruleId: z.uuid(),
  trigger: z.enum(RULE_RUN_TRIGGERS),
  /** The schedule slot this run belongs to (ISO time); a manual run has its own. */
  slot: z.string(),
  status: z.enum(RULE_RUN_STATUSES),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  evaluated: z.number().int(),
  matched: z.number().int(),
  error: z.object({ code: z.enum(RULE_RUN_ERROR_CODES), params: codeParamsSchema }).nullable(),
  actions: z.array(ruleActionRecordSchema),
  /** Matched entities whose action was not planned (cooldown, safeguards, already paused…), as the plan recorded. */
  skipped: z.array(runSkipSchema),
});
export type RuleRun = z.infer<typeof ruleRunSchema>;

/** POST /api/rules/:id/run answers 202 with the run's id. */
export const ruleRunStartedSchema = z.object({ runId: z.uuid() });

export const ruleActionIdParamsSchema = z.strictObject({ actionId: z.uuid({ error: 'Action not found' }) });

/** POST /api/rules/actions/:actionId/revert: the action, now reverted. A refusal is a 409 (REVERT_REFUSAL_CODES). */
export const revertResponseSchema = z.object({ action: ruleActionRecordSchema });

/**
 * A timed hold's resume: `scheduled` until `resumeAt`, then `resumed`, or `skipped` (the status was changed since
 * the pause; logged), `failed` (Meta refused), or `cancelled` (the pause was reverted first).
 */
export const RULE_HOLD_STATUSES = ['scheduled', 'resumed', 'skipped', 'failed', 'cancelled'] as const;
export type RuleHoldStatus = (typeof RULE_HOLD_STATUSES)[number];

/** GET /api/rules/:id/holds: one per pause with `resumeAfter`, newest first. `actionId` is the pause's ledger row. */
export const ruleHoldSchema = z.object({
  actionId: z.uuid(),
  entity: ruleEntityRefSchema,
  resumeAt: z.string(),
  status: z.enum(RULE_HOLD_STATUSES),
  /** When it was resumed, skipped or cancelled; null while scheduled. */
  settledAt: z.string().nullable(),
});
export type RuleHold = z.infer<typeof ruleHoldSchema>;

/** POST /api/rules/holds/:actionId/resume: the hold after the attempt. 409 HOLD_NOT_SCHEDULED when not scheduled. */
export const holdResumeResponseSchema = z.object({ hold: ruleHoldSchema });
