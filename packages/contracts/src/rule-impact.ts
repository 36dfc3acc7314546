import { z } from 'zod';
import { REPORT_MAX_DAYS } from './reports.ts';
import { ruleEntityRefSchema } from './rule-results.ts';
import { calendarDate } from './text.ts';

/**
 * The impact of a rule's applied actions: each action's entity before against after, over 3, 7 and 14 local days
 * either side of the action's day, shown once those days have settled (the mirror no longer revises them); a
 * pause's spend avoided (an estimate); a rule's totals over a range. Money in major units of the account currency;
 * CPA and ROAS null where undefined (no results, no spend).
 */

export const IMPACT_WINDOW_DAYS = [3, 7, 14] as const;
/** The window the rule's before/after totals compare (both sides settled). */
export const IMPACT_TOTALS_WINDOW = 7;

export const RULE_IMPACT_MESSAGES = {
  fromAfterTo: 'The start date must not be after the end date',
  rangeTooLong: `An impact range covers at most ${REPORT_MAX_DAYS} days`,
} as const;

export const ruleImpactQuerySchema = z
  .strictObject({ from: calendarDate(), to: calendarDate() })
  .superRefine((query, ctx) => {
    if (query.from > query.to)
      ctx.addIssue({ code: 'custom', path: ['from'], message: RULE_IMPACT_MESSAGES.fromAfterTo });
    else if ((Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 + 1 > REPORT_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: RULE_IMPACT_MESSAGES.rangeTooLong });
  });
export type RuleImpactQuery = z.infer<typeof ruleImpactQuerySchema>;

export const impactFiguresSchema = z.object({
  spend: z.number(),
  results: z.number(),
  cpa: z.number().nullable(),
  roas: z.number().nullable(),
});
export type ImpactFigures = z.infer<typeof impactFiguresSchema>;

export const impactWindowSchema = z.object({
  days: z.number().int(),
  /** The local days after the action the "after" covers: fewer than `days` when a revert ended it. */
  afterDays: z.number().int(),
  /** Null until the after days have settled, or when a revert left no whole day after the action. */
  after: impactFiguresSchema.nullable(),
  before: impactFiguresSchema,
});
export type ImpactWindow = z.infer<typeof impactWindowSchema>;

/** A pause's spend avoided: the average daily spend of the 7 days before × the days paused. Always an estimate. */
export const spendAvoidedSchema = z.object({
  estimate: z.literal(true),
  amount: z.number(),
  dailySpend: z.number(),
  days: z.number(),
  /** Still paused: counted up to now. */
  ongoing: z.boolean(),
});
export type SpendAvoided = z.infer<typeof spendAvoidedSchema>;

export const actionImpactSchema = z.object({
  actionId: z.string(),
  type: z.string(),
  entity: ruleEntityRefSchema,
  currency: z.string(),
  appliedAt: z.string(),
  /** The account's local day of the action (the day between before and after). */
  localDate: z.string(),
  revertedAt: z.string().nullable(),
  /** A budget change: from → to, major units. */
  budget: z.object({ from: z.number(), to: z.number() }).nullable(),
  windows: z.array(impactWindowSchema),
  spendAvoided: spendAvoidedSchema.nullable(),
});
export type ActionImpact = z.infer<typeof actionImpactSchema>;

const ratiosSchema = z.object({ cpa: z.number().nullable(), roas: z.number().nullable() });

export const ruleImpactTotalsSchema = z.object({
  actionsApplied: z.number().int(),
  byType: z.record(z.string(), z.number().int()),
  /** The one currency of the actions' accounts; null when they differ, and then the money totals are null. */
  currency: z.string().nullable(),
  budgetRaised: z.number().nullable(),
  budgetLowered: z.number().nullable(),
  spendAvoided: z.number().nullable(),
  /** Budget changes whose 7-day windows have settled on both sides, weighted by spend. */
  compared: z.number().int(),
  before: ratiosSchema,
  after: ratiosSchema,
});
export type RuleImpactTotals = z.infer<typeof ruleImpactTotalsSchema>;

/** The touched entities' summed day (one currency only), for the chart. */
export const impactDaySchema = z.object({
  date: z.string(),
  spend: z.number(),
  cpa: z.number().nullable(),
  roas: z.number().nullable(),
});
export type ImpactDay = z.infer<typeof impactDaySchema>;

export const ruleImpactSchema = z.object({
  from: z.string(),
  to: z.string(),
  actions: z.array(actionImpactSchema),
  totals: ruleImpactTotalsSchema,
  daily: z.array(impactDaySchema),
});
export type RuleImpact = z.infer<typeof ruleImpactSchema>;
