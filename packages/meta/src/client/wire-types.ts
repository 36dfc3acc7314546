import { z } from 'zod';

/**
 * Graph objects as they travel: ids and money are strings (budgets in minor units), fields that are not set are
 * absent. Loose objects keep any extra field Meta adds without failing.
 */
export const graphAdAccountSchema = z.looseObject({
  id: z.string(),
  account_id: z.string(),
  name: z.string(),
  currency: z.string(),
  timezone_name: z.string(),
  timezone_offset_hours_utc: z.number().optional(),
  account_status: z.number(),
  disable_reason: z.number().optional(),
  amount_spent: z.string().optional(),
  balance: z.string().optional(),
  spend_cap: z.string().optional(),
  /**
   * The account's minimum daily budget in minor units. Meta's SDKs type it `unsigned int` (a JSON number, unlike
   * the string budgets); a numeric string is read the same way so a change of encoding never fails a sync.
   */
  min_daily_budget: z
    .union([
      z.number().int().nonnegative(),
      z
        .string()
        .regex(/^\d{1,15}$/)
        .transform(Number),
    ])
    .optional(),
  business: z.looseObject({ id: z.string(), name: z.string() }).optional(),
  created_time: z.string().optional(),
});

const entityFields = {
  id: z.string(),
  account_id: z.string().optional(),
  name: z.string(),
  status: z.string(),
  configured_status: z.string().optional(),
  effective_status: z.string(),
  created_time: z.string().optional(),
  updated_time: z.string().optional(),
};

const budgetFields = {
  daily_budget: z.string().optional(),
  lifetime_budget: z.string().optional(),
  budget_remaining: z.string().optional(),
  bid_strategy: z.string().optional(),
  start_time: z.string().optional(),
};

export const graphCampaignSchema = z.looseObject({
  ...entityFields,
  ...budgetFields,
  objective: z.string().optional(),
  buying_type: z.string().optional(),
  stop_time: z.string().optional(),
});

/** Where an ad set is in Meta's learning phase: LEARNING, SUCCESS (exited) or FAIL (learning limited). */
export const learningStageInfoSchema = z.looseObject({
  status: z.string(),
  conversions: z.number().optional(),
  last_sig_edit_ts: z.number().optional(),
  attribution_windows: z.array(z.string()).optional(),
});

/** One delivery issue of an ad (or its ad set / campaign), as Meta lists them under issues_info. */
export const issueInfoSchema = z.looseObject({
  level: z.string().optional(),
  error_code: z.number().optional(),
  error_summary: z.string().optional(),
  error_message: z.string().optional(),
  error_type: z.string().optional(),
});

export const graphAdSetSchema = z.looseObject({
  ...entityFields,
  ...budgetFields,
  campaign_id: z.string(),
  bid_amount: z.number().optional(),
  billing_event: z.string().optional(),
  optimization_goal: z.string().optional(),
  end_time: z.string().optional(),
  learning_stage_info: learningStageInfoSchema.optional(),
});

export const graphAdSchema = z.looseObject({
  ...entityFields,
  campaign_id: z.string(),
  adset_id: z.string(),
  issues_info: z.array(issueInfoSchema).optional(),
});

/** Any single object read with chosen fields: only the id is sure to be there. */
export const graphObjectSchema = z.looseObject({ id: z.string() });

export const graphPagingSchema = z.looseObject({
  cursors: z.looseObject({ before: z.string().optional(), after: z.string().optional() }).optional(),
  next: z.string().optional(),
  previous: z.string().optional(),
});

export const graphListSchema = z.looseObject({
  data: z.array(z.unknown()),
  paging: graphPagingSchema.optional(),
});

/** Insights rows are checked field by field when parsed; here they only need to be objects. */
export const insightsWireRowSchema = z.record(z.string(), z.unknown());

export const tokenResponseSchema = z.looseObject({
  access_token: z.string(),
  token_type: z.string().optional(),
  expires_in: z.number().optional(),
});

export const debugTokenSchema = z.looseObject({
  data: z.looseObject({
    app_id: z.string().optional(),
    type: z.string().optional(),
    application: z.string().optional(),
    expires_at: z.number().optional(),
    data_access_expires_at: z.number().optional(),
    issued_at: z.number().optional(),
    is_valid: z.boolean(),
    scopes: z.array(z.string()).optional(),
    granular_scopes: z
      .array(z.looseObject({ scope: z.string(), target_ids: z.array(z.string()).optional() }))
      .optional(),
    user_id: z.string().optional(),
    error: z.looseObject({ code: z.number().optional(), message: z.string().optional() }).optional(),
  }),
});

export const reportRunSchema = z.looseObject({
  id: z.string().optional(),
  async_status: z.string(),
  async_percent_completion: z.number().optional(),
});

/**
 * One entry of an ad account's activity history (`GET /act_{id}/activities`, the SDKs' AdActivity). `extra_data` is
 * a JSON string whose shape Meta does not document; `application_id` names the app a change came through.
 */
export const graphActivitySchema = z.looseObject({
  event_type: z.string(),
  event_time: z.string(),
  actor_id: z.string().optional(),
  actor_name: z.string().optional(),
  application_id: z.string().optional(),
  application_name: z.string().optional(),
  object_id: z.string().optional(),
  object_name: z.string().optional(),
  object_type: z.string().optional(),
  extra_data: z.string().optional(),
  translated_event_type: z.string().optional(),
  date_time_in_timezone: z.string().optional(),
});

export type GraphAdAccount = z.infer<typeof graphAdAccountSchema>;
export type GraphActivity = z.infer<typeof graphActivitySchema>;
export type GraphCampaign = z.infer<typeof graphCampaignSchema>;
export type GraphAdSet = z.infer<typeof graphAdSetSchema>;
export type GraphAd = z.infer<typeof graphAdSchema>;
export type GraphObject = z.infer<typeof graphObjectSchema>;
export type LearningStageInfo = z.infer<typeof learningStageInfoSchema>;
export type IssueInfo = z.infer<typeof issueInfoSchema>;
export type DebugTokenData = z.infer<typeof debugTokenSchema>['data'];

export const AD_ACCOUNT_FIELDS = [
  'id',
  'account_id',
  'name',
  'currency',
  'timezone_name',
  'timezone_offset_hours_utc',
  'account_status',
  'disable_reason',
  'amount_spent',
  'balance',
  'spend_cap',
  'min_daily_budget',
  'business',
  'created_time',
];

const ENTITY_FIELDS = [
  'id',
  'account_id',
  'name',
  'status',
  'configured_status',
  'effective_status',
  'created_time',
  'updated_time',
];
const BUDGET_FIELDS = ['daily_budget', 'lifetime_budget', 'budget_remaining', 'bid_strategy', 'start_time'];

export const CAMPAIGN_FIELDS = [...ENTITY_FIELDS, ...BUDGET_FIELDS, 'objective', 'buying_type', 'stop_time'];
export const AD_SET_FIELDS = [
  ...ENTITY_FIELDS,
  ...BUDGET_FIELDS,
  'campaign_id',
  'bid_amount',
  'billing_event',
  'optimization_goal',
  'end_time',
  'learning_stage_info',
];
export const AD_FIELDS = [...ENTITY_FIELDS, 'campaign_id', 'adset_id', 'issues_info'];
export const ACTIVITY_FIELDS = [
  'event_type',
  'event_time',
  'actor_id',
  'actor_name',
  'application_id',
  'application_name',
  'object_id',
  'object_name',
  'object_type',
  'extra_data',
  'translated_event_type',
];
