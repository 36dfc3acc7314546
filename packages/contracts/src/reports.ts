import { z } from 'zod';
import { ruleImpactTotalsSchema } from './rule-impact.ts';
import { calendarDate } from './text.ts';

/** Reports (issue 9): spend, conversions, CPA and ROAS per day from `insights_daily`, per account or campaign. */

export const REPORT_LEVELS = ['account', 'campaign'] as const;
export const REPORT_MAX_DAYS = 366;
/** Per campaign, only the campaigns that spent most carry their days (the chart draws fewer); all carry totals. */
export const REPORT_DAILY_SERIES_MAX = 12;

export const REPORT_MESSAGES = {
  fromAfterTo: 'The start date must not be after the end date',
  rangeTooLong: `A report covers at most ${REPORT_MAX_DAYS} days`,
  adAccountId: 'Unknown ad account',
} as const;

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

const reportQueryShape = {
  from: calendarDate(),
  to: calendarDate(),
  adAccountId: z.uuid({ error: REPORT_MESSAGES.adAccountId }).optional(),
  level: z.enum(REPORT_LEVELS).default('account'),
};

function checkRange(query: { from: string; to: string }, ctx: z.RefinementCtx) {
  if (query.from > query.to) ctx.addIssue({ code: 'custom', path: ['from'], message: REPORT_MESSAGES.fromAfterTo });
  else if (daysBetween(query.from, query.to) > REPORT_MAX_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_MESSAGES.rangeTooLong });
}

export const reportQuerySchema = z.strictObject(reportQueryShape).superRefine(checkRange);
export type ReportQuery = z.infer<typeof reportQuerySchema>;

export const REPORT_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ReportExportFormat = (typeof REPORT_EXPORT_FORMATS)[number];

/** GET /api/reports/export: the Reports page's query and the file's format. */
export const reportExportQuerySchema = z
  .strictObject({ ...reportQueryShape, format: z.enum(REPORT_EXPORT_FORMATS).default('csv') })
  .superRefine(checkRange);
export type ReportExportQuery = z.infer<typeof reportExportQuerySchema>;

/** One day's figures; money in major units of the series' currency; CPA and ROAS null when undefined. */
export const reportPointSchema = z.object({
  date: z.string(),
  spend: z.number(),
  conversions: z.number(),
  conversionValue: z.number(),
  cpa: z.number().nullable(),
  roas: z.number().nullable(),
});
export type ReportPoint = z.infer<typeof reportPointSchema>;

/**
 * One day of a series: before the account's first day with data (`hasData: false`) every figure is null, "no data",
 * never a zero; from that day on, a day without delivery is a true zero (ADR 0104).
 */
export const reportDaySchema = z.object({
  date: z.string(),
  hasData: z.boolean(),
  spend: z.number().nullable(),
  conversions: z.number().nullable(),
  conversionValue: z.number().nullable(),
  cpa: z.number().nullable(),
  roas: z.number().nullable(),
});
export type ReportDay = z.infer<typeof reportDaySchema>;

export const reportSeriesSchema = z.object({
  /** The account's id, or the campaign's Meta id. */
  id: z.string(),
  level: z.enum(REPORT_LEVELS),
  name: z.string(),
  adAccountId: z.uuid(),
  adAccountName: z.string(),
  currency: z.string(),
  /**
   * Every day of the range: no data before the account's first day with data, zero-filled from it; per campaign
   * only for the REPORT_DAILY_SERIES_MAX that spent most (the others: empty, their totals still exact).
   */
  days: z.array(reportDaySchema),
  /** The account's first local day with data (null: none yet). */
  firstDataDay: z.string().nullable(),
  totals: reportPointSchema.omit({ date: true }),
});
export type ReportSeries = z.infer<typeof reportSeriesSchema>;

export const reportSchema = z.object({
  from: z.string(),
  to: z.string(),
  level: z.enum(REPORT_LEVELS),
  series: z.array(reportSeriesSchema),
});
export type Report = z.infer<typeof reportSchema>;

export const OVERVIEW_DAYS_MAX = 90;

/** GET /api/reports/overview: the last `days` local days ending `to` (by default the accounts' today, ADR 0131). */
export const reportOverviewQuerySchema = z.strictObject({
  days: z.coerce.number().int().min(1).max(OVERVIEW_DAYS_MAX).default(30),
  to: calendarDate().optional(),
});
export type ReportOverviewQuery = z.infer<typeof reportOverviewQuerySchema>;

/** One local day of a currency's accounts: spend (major units), results (conversions), rule actions applied. */
export const overviewDaySchema = z.object({
  date: z.string(),
  spend: z.number(),
  results: z.number(),
  actions: z.number().int(),
});
export type OverviewDay = z.infer<typeof overviewDaySchema>;

/** The workspace's accounts of one currency, summed per day (amounts in different currencies are never summed). */
export const overviewCurrencySchema = z.object({
  currency: z.string(),
  days: z.array(overviewDaySchema),
  totals: z.object({ spend: z.number(), results: z.number(), actions: z.number().int() }),
});
export type OverviewCurrency = z.infer<typeof overviewCurrencySchema>;

export const reportOverviewSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** The number of ad accounts read (0: none connected). */
  accounts: z.number().int(),
  /** One entry per currency, the one that spent most first (the workspace's main currency). */
  currencies: z.array(overviewCurrencySchema),
  /** What the rules did from the first of `to`'s month to `to`: the impact arithmetic's totals. */
  month: z.object({
    from: z.string(),
    to: z.string(),
    // Lazy: rule-impact.ts and this file load in a cycle through the package's index.
    totals: z.lazy(() => ruleImpactTotalsSchema),
  }),
});
export type ReportOverview = z.infer<typeof reportOverviewSchema>;
