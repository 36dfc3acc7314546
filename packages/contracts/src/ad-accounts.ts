import { z } from 'zod';
import { calendarDate, text } from './text.ts';

export const AD_ACCOUNT_MESSAGES = {
  connected: (count: number) =>
    `Successfully connected ${count} ad ${new Intl.PluralRules('en').select(count) === 'one' ? 'account' : 'accounts'}!`,
  connectFailed: 'Failed to connect Facebook ad accounts. Please try again.',
  initiateFailed: 'Failed to initiate Facebook connection. Please try again.',
  stateInvalid: 'This connection request has expired or was already used. Please start again.',
  sandboxWorldMismatch:
    'This sandbox connection was made for another workspace. Please start again from Connect Account in this workspace.',
  authorizationDenied: 'Facebook authorization was cancelled.',
  reauthRequired: 'Facebook access for this ad account has expired. Please reconnect it.',
  readOnly:
    'This ad account is read-only: AdPilot was not given permission to manage its ads. Reconnect it and allow managing ads.',
  noAdsPermission: 'Facebook did not give AdPilot permission to read your ads. Please connect again and allow it.',
  systemUserTokenInvalid: 'Facebook says this token is not valid (expired, revoked or mistyped).',
  notSystemUserToken:
    "This is not a Business Manager system user's token. Generate one for your business's system user and paste it.",
} as const;

/** What AdPilot needs from Meta: ads_read to read, ads_management to pause, resume and change budgets. */
export const META_WRITE_SCOPE = 'ads_management';

export const adAccountStatusSchema = z.enum(['active', 'inactive']);
export const syncStatusSchema = z.enum(['idle', 'queued', 'syncing', 'error']);

/** The account card warns this many days before the token expires, with "Reconnect" (60-day user tokens). */
export const TOKEN_EXPIRY_WARNING_DAYS = 7;
/** Days before the pinned Marketing API version's end of life when the account cards start to warn. */
export const API_VERSION_WARNING_DAYS = 90;
/**
 * How far back an account's daily insights are read (ADR 0103): the first sync reads the default's 90 days, a longer
 * setting is fetched by the backfill job; 1125 days is the most Meta's 37 months of insights always hold.
 */
export const BACKFILL_DAYS_MIN = 30;
export const BACKFILL_DAYS_MAX = 1125;
export const BACKFILL_DAYS_DEFAULT = 90;

/** How much of the history setting the mirror holds: `days` of the `target_days` read, from `from` on. */
export const accountHistorySchema = z.object({
  /** The earliest local day read from Meta; null before the first sync. */
  from: z.string().nullable(),
  days: z.number().int(),
  target_days: z.number().int(),
  complete: z.boolean(),
});
export type AccountHistory = z.infer<typeof accountHistorySchema>;

/** An ad account as the web app sees it (spec §3); tokens never leave the server. */
export const adAccountSchema = z.object({
  id: z.uuid(),
  facebook_account_id: z.string(),
  facebook_account_name: z.string(),
  account_status: adAccountStatusSchema,
  /** Meta's numeric account_status (1 ACTIVE, 2 DISABLED, 3 UNSETTLED …). */
  meta_account_status: z.number().int(),
  status_reason: z.string().nullable(),
  currency: z.string(),
  timezone: z.string(),
  last_sync: z.string().nullable(),
  sync_status: syncStatusSchema,
  last_sync_error: z.string().nullable(),
  needs_reauth: z.boolean(),
  is_sandbox: z.boolean(),
  /** Meta permissions the user did not grant (scope names); the web shows them in words. */
  missing_scopes: z.array(z.string()),
  /** Without ads_management AdPilot can read the account but change nothing in it. */
  read_only: z.boolean(),
  auto_sync: z.boolean(),
  /** The anomaly watch's sensitivity (ADR 0125): off, low (× 3), medium (× 2), high (× 1.5). */
  anomaly_sensitivity: z.enum(['off', 'low', 'medium', 'high']),
  /** Until when no new anomaly is written or sent for this account ("mute 24 h"); null: not muted. */
  anomaly_muted_until: z.string().nullable(),
  /** The history setting (ADR 0103): how many days back the daily insights are read. */
  backfill_days: z.number().int(),
  history: accountHistorySchema,
  /**
   * When the Meta token the account was connected with stops working (debug_token's `expires_at`, ADR 0126); null
   * for a token that does not expire (a system user's) or one whose expiry Meta did not say.
   */
  token_expires_at: z.string().nullable(),
  /**
   * Whose token the account was connected with: a person's (Facebook Login) or a Business Manager system user's
   * (an agency's business, ADR 0190); a never-expiring system user token has no token_expires_at.
   */
  token_kind: z.enum(['user', 'system_user']),
  /** The Marketing API version AdPilot speaks to Meta with (one setting for the instance, e.g. "v27.0"). */
  api_version: z.string().nullable(),
  /**
   * The day (YYYY-MM-DD) Meta ends that version, from Meta's version history or the instance's setting; null while
   * Meta has not announced it. The card warns API_VERSION_WARNING_DAYS before it.
   */
  api_version_ends_at: z.string().nullable(),
  /**
   * Where "View in Facebook" opens the account: Ads Manager, or the sandbox's page by a link signed for the member
   * asking, given to those who may edit only (null for a viewer or an API token on a sandbox account).
   */
  ads_manager_url: z.string().nullable(),
  created_at: z.string(),
});

export const adAccountDetailSchema = adAccountSchema.extend({
  counts: z.object({ campaigns: z.number(), adsets: z.number(), ads: z.number() }),
});

export const adAccountIdParamsSchema = z.strictObject({ id: z.uuid({ error: 'Invalid ad account id' }) });

/** PATCH /ad-accounts/{id}: the fields a user may change. */
export const updateAdAccountRequestSchema = z
  .strictObject({
    facebook_account_name: text({ trim: true }).min(1).max(200).optional(),
    auto_sync: z.boolean().optional(),
    anomaly_sensitivity: z.enum(['off', 'low', 'medium', 'high']).optional(),
    backfill_days: z.number().int().min(BACKFILL_DAYS_MIN).max(BACKFILL_DAYS_MAX).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to update' });

export const adAccountStatsQuerySchema = z
  .strictObject({ start_date: calendarDate().optional(), end_date: calendarDate().optional() })
  .refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, {
    message: 'start_date must not be after end_date',
    path: ['start_date'],
  });

export const metricTotalsSchema = z.object({
  spend: z.number(),
  impressions: z.number(),
  reach: z.number(),
  clicks: z.number(),
  link_clicks: z.number(),
  conversions: z.number(),
  conversion_value: z.number(),
  ctr: z.number().nullable(),
  cpc: z.number().nullable(),
  cpm: z.number().nullable(),
  cpa: z.number().nullable(),
  roas: z.number().nullable(),
});

export const adAccountStatsSchema = z.object({
  ad_account_id: z.uuid(),
  currency: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  totals: metricTotalsSchema,
  daily: z.array(metricTotalsSchema.extend({ date: z.string() })),
});

export const authUrlResponseSchema = z.object({ authUrl: z.string() });

/** POST /ad-accounts/system-user: a Business Manager system user's access token, pasted by an admin. */
export const systemUserConnectRequestSchema = z.strictObject({
  access_token: z.string().trim().min(20).max(1000),
});

export const facebookCallbackRequestSchema = z.strictObject({
  code: text().min(1, 'code is required').max(2048),
  state: text().min(1, 'state is required').max(256),
});

/** An account the authorisation granted but the plan had no room for (nothing of it is stored). */
export const leftOutAccountSchema = z.object({ facebook_account_id: z.string(), facebook_account_name: z.string() });

/**
 * The accounts connected; with the plan's ad-account limit reached part way, the ones left out and the limit (-1:
 * unlimited), so the page can say which were skipped and how to make room (disconnect one, or upgrade).
 */
export const facebookCallbackResponseSchema = z.object({
  connectedAccounts: z.array(adAccountSchema),
  leftOutAccounts: z.array(leftOutAccountSchema),
  adAccountLimit: z.number().int(),
});
export type LeftOutAccount = z.infer<typeof leftOutAccountSchema>;

export const syncResponseSchema = z.object({ queued: z.boolean(), account: adAccountSchema });

export type AdAccount = z.infer<typeof adAccountSchema>;
export type AdAccountDetail = z.infer<typeof adAccountDetailSchema>;
export type AdAccountStats = z.infer<typeof adAccountStatsSchema>;
export type MetricTotals = z.infer<typeof metricTotalsSchema>;
export type UpdateAdAccountRequest = z.infer<typeof updateAdAccountRequestSchema>;
export type FacebookCallbackResponse = z.infer<typeof facebookCallbackResponseSchema>;

// ——— Monthly budgets and the anomaly watch (ADR 0124, 0125) ———

export const MONTHLY_BUDGET_MESSAGES = {
  campaignNotFound: 'Campaign not found in this ad account',
  campaignId: 'Use the campaign’s Meta id (digits)',
} as const;

/** The largest monthly budget accepted, in major units. */
export const MONTHLY_BUDGET_MAX = 1_000_000_000;

/** PUT /ad-accounts/{id}/monthly-budgets: sets (or with `amount: null` removes) the account's or a campaign's. */
export const setMonthlyBudgetRequestSchema = z.strictObject({
  /** Meta's campaign id; null or absent: the whole account. */
  campaign_id: z
    .string()
    .regex(/^\d{1,32}$/, { error: MONTHLY_BUDGET_MESSAGES.campaignId })
    .nullable()
    .optional(),
  /** Major units of the account currency (฿100,000 is 100000); null removes the budget. */
  amount: z.number().positive().max(MONTHLY_BUDGET_MAX).nullable(),
});

export const pacingStatusSchema = z.enum(['on_track', 'over', 'under']);

/** A monthly budget with where this local month stands against it (money in major units). */
export const monthlyBudgetSchema = z.object({
  campaign_id: z.string().nullable(),
  /** The campaign's name, or the account's. */
  name: z.string(),
  amount: z.number(),
  currency: z.string(),
  /** The account's local month, YYYY-MM. */
  month: z.string(),
  /** Spend of this month's whole days before today. */
  month_to_date: z.number(),
  /** month_to_date + the last 7 whole days' daily average × the days left, today included. */
  projected: z.number(),
  /** projected ÷ amount, in %. */
  percent: z.number(),
  status: pacingStatusSchema,
});

export const anomalyMuteRequestSchema = z.strictObject({
  /** Hours from now; 0 lifts the mute. */
  hours: z.number().int().min(0).max(168).default(24),
});
export const anomalyMuteResponseSchema = z.object({ muted_until: z.string().nullable() });

export type SetMonthlyBudgetRequest = z.infer<typeof setMonthlyBudgetRequestSchema>;
export type MonthlyBudget = z.infer<typeof monthlyBudgetSchema>;
export type PacingStatus = z.infer<typeof pacingStatusSchema>;
export type AnomalyMuteResponse = z.infer<typeof anomalyMuteResponseSchema>;
