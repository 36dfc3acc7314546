export {
  MetaClient,
  toActId,
  type EntityStatus,
  type MetaClientOptions,
  type TokenResult,
} from './client/meta-client.ts';
export {
  BUDGET_CHANGE_LIMIT_SUBCODE,
  MetaApiError,
  MetaInvalidParameterError,
  MetaPermissionError,
  MetaRateLimitError,
  MetaTokenExpiredError,
  MetaTransientError,
  TOO_MUCH_DATA_SUBCODE,
  type MetaErrorInit,
} from './client/errors.ts';
export { MAX_BATCH_SIZE, type BatchRequest, type BatchResult } from './client/batch.ts';
export type { MetaLogger } from './client/graph-transport.ts';
export {
  defaultInsightsFields,
  type InsightsAction,
  type InsightsLevel,
  type InsightsOptions,
  type InsightsRow,
} from './client/insights.ts';
export type { AccountUsage, AppUsage, BusinessUseCaseUsage } from './client/usage-tracker.ts';
export { redactUrl } from './client/redact.ts';
export type { DebugTokenData, GraphAd, GraphAdAccount, GraphAdSet, GraphCampaign } from './client/wire-types.ts';
