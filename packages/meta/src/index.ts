export {
  MetaClient,
  toActId,
  type BudgetSchedule,
  type DialogUrlInput,
  type EntityStatus,
  type MetaClientOptions,
  type TokenResult,
  type WriteOptions,
} from './client/meta-client.ts';
export {
  BUDGET_LIMIT_HOLD_MS,
  isTooMuchData,
  MetaApiError,
  MetaBudgetLimitError,
  MetaInvalidParameterError,
  MetaRetiredFeatureError,
  MetaPermissionError,
  MetaRateLimitError,
  MetaTokenExpiredError,
  MetaTooMuchDataError,
  MetaTransientError,
  type MetaErrorInit,
} from './client/errors.ts';
export { appSecretProof } from './client/graph-transport.ts';
export { MARKETING_API_END_OF_LIFE, marketingApiEndOfLife } from './client/versions.ts';
export { MAX_BATCH_SIZE, type BatchRequest, type BatchResult } from './client/batch.ts';
export type { FieldWrite, LiveField, LiveValues } from './client/live-fields.ts';
export type { MetaLogger } from './client/graph-transport.ts';
export type { MetaCallKind, MetaCallOutcome, MetaObserver, MetaWaitReason } from './client/observer.ts';
export {
  defaultInsightsFields,
  type InsightsAction,
  type InsightsLevel,
  type InsightsOptions,
  type InsightsRow,
} from './client/insights.ts';
export type { AccountUsage, AppUsage, BusinessUseCaseUsage } from './client/usage-tracker.ts';
export { redactText, redactUrl, SECRET_PARAMS } from './client/redact.ts';
export type {
  DebugTokenData,
  GraphActivity,
  GraphAd,
  GraphAdAccount,
  GraphAdSet,
  GraphCampaign,
  GraphObject,
  IssueInfo,
  LearningStageInfo,
} from './client/wire-types.ts';
/** The vocabulary the rule engine shares with this client: one home, in contracts. */
export { currencyOffset, toMajorUnits, toMinorUnits, ZERO_DECIMAL_CURRENCIES } from '@adpilot/contracts';
