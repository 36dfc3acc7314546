import { runInsightsReport } from './async-report.ts';
import { runBatch, type BatchRequest, type BatchResult } from './batch.ts';
import { MetaInvalidParameterError, TOO_MUCH_DATA_SUBCODE } from './errors.ts';
import { GraphTransport, type GraphRequest, type MetaLogger } from './graph-transport.ts';
import { insightsParams, parseInsightsRow, prefersAsync, type InsightsOptions, type InsightsRow } from './insights.ts';
import { z } from 'zod';
import { UsageTracker, type AccountUsage, type AppUsage } from './usage-tracker.ts';
import {
  AD_ACCOUNT_FIELDS,
  AD_FIELDS,
  AD_SET_FIELDS,
  CAMPAIGN_FIELDS,
  debugTokenSchema,
  graphAdAccountSchema,
  graphAdSchema,
  graphAdSetSchema,
  graphCampaignSchema,
  insightsWireRowSchema,
  tokenResponseSchema,
  type DebugTokenData,
  type GraphAd,
  type GraphAdAccount,
  type GraphAdSet,
  type GraphCampaign,
} from './wire-types.ts';

export interface MetaClientOptions {
  /** Default https://graph.facebook.com; the sandbox's URL to talk to it instead. */
  graphBaseUrl?: string;
  /** Default https://www.facebook.com. */
  dialogBaseUrl?: string;
  /** Default v25.0. */
  version?: string;
  appId: string;
  /** Needed for code exchange and debug_token; when set every call carries appsecret_proof. */
  appSecret?: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Jitter source for backoff, in [0, 1). */
  random?: () => number;
  /** Retries of transient failures (default 4). */
  maxRetries?: number;
  /** Retries after a rate limit, each after the announced wait (default 2). */
  maxRateLimitRetries?: number;
  /** Longer announced waits are not slept through: the MetaRateLimitError is thrown with retryAfterMs (default 15 min). */
  maxRateLimitWaitMs?: number;
  /** Page size for entity lists (default and Graph maximum 500). */
  pageSize?: number;
  /** Page size for insights rows (default 5,000: rows are small; Meta pages what it will not send at once). */
  insightsPageSize?: number;
  /** Per-request timeout (default 60 s). */
  timeoutMs?: number;
  logger?: MetaLogger;
}

export interface TokenResult {
  accessToken: string;
  tokenType: string;
  expiresIn?: number;
}

export type EntityStatus = 'ACTIVE' | 'PAUSED';

const successSchema = z.looseObject({ success: z.boolean() });

export const toActId = (id: string): string => (id.startsWith('act_') ? id : `act_${id}`);

/** A thin typed client for the Graph/Marketing API subset AdPilot uses. Tokens are passed per call. */
export class MetaClient {
  readonly graphBaseUrl: string;
  readonly dialogBaseUrl: string;
  readonly version: string;
  readonly appId: string;
  private readonly appSecret: string | undefined;
  private readonly pageSize: number;
  private readonly insightsPageSize: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly tracker: UsageTracker;
  private readonly transport: GraphTransport;

  constructor(options: MetaClientOptions) {
    this.graphBaseUrl = (options.graphBaseUrl ?? 'https://graph.facebook.com').replace(/\/+$/, '');
    this.dialogBaseUrl = (options.dialogBaseUrl ?? 'https://www.facebook.com').replace(/\/+$/, '');
    this.version = options.version ?? 'v25.0';
    this.appId = options.appId;
    this.appSecret = options.appSecret || undefined;
    this.pageSize = Math.min(500, Math.max(1, options.pageSize ?? 500));
    this.insightsPageSize = Math.min(5000, Math.max(1, options.insightsPageSize ?? 5000));
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.tracker = new UsageTracker({ thresholdPct: 95, fallbackWaitMs: 60_000 });
    this.transport = new GraphTransport({
      graphBaseUrl: this.graphBaseUrl,
      version: this.version,
      appSecret: this.appSecret,
      fetch: options.fetch ?? globalThis.fetch,
      sleep: this.sleep,
      now: options.now ?? Date.now,
      random: options.random ?? Math.random,
      maxRetries: options.maxRetries ?? 4,
      maxRateLimitRetries: options.maxRateLimitRetries ?? 2,
      maxRateLimitWaitMs: options.maxRateLimitWaitMs ?? 15 * 60_000,
      rateLimitFallbackMs: 60_000,
      timeoutMs: options.timeoutMs ?? 60_000,
      logger: options.logger,
      usage: this.tracker,
    });
  }

  getDialogUrl(input: { redirectUri: string; state: string; scopes: readonly string[] }): string {
    const url = new URL(`${this.dialogBaseUrl}/${this.version}/dialog/oauth`);
    url.searchParams.set('client_id', this.appId);
    url.searchParams.set('redirect_uri', input.redirectUri);
    url.searchParams.set('state', input.state);
    url.searchParams.set('scope', input.scopes.join(','));
    url.searchParams.set('response_type', 'code');
    return url.toString();
  }

  async exchangeCode(input: { code: string; redirectUri: string }): Promise<TokenResult> {
    return this.tokenRequest({ code: input.code, redirect_uri: input.redirectUri });
  }

  async exchangeLongLivedToken(shortToken: string): Promise<TokenResult> {
    return this.tokenRequest({ grant_type: 'fb_exchange_token', fb_exchange_token: shortToken });
  }

  async debugToken(inputToken: string): Promise<DebugTokenData> {
    const request: GraphRequest = {
      method: 'GET',
      path: 'debug_token',
      params: { input_token: inputToken },
      token: `${this.appId}|${this.requireSecret()}`,
    };
    return this.transport.parse(debugTokenSchema, await this.transport.call(request), request).data;
  }

  async listAdAccounts(token: string): Promise<GraphAdAccount[]> {
    return this.list(token, 'me/adaccounts', AD_ACCOUNT_FIELDS, graphAdAccountSchema);
  }

  async getAdAccount(token: string, actId: string): Promise<GraphAdAccount> {
    const id = toActId(actId);
    return this.getObject(token, id, AD_ACCOUNT_FIELDS, graphAdAccountSchema, id);
  }

  async listCampaigns(token: string, actId: string): Promise<GraphCampaign[]> {
    return this.list(token, `${toActId(actId)}/campaigns`, CAMPAIGN_FIELDS, graphCampaignSchema, toActId(actId));
  }

  async listAdSets(token: string, actId: string): Promise<GraphAdSet[]> {
    return this.list(token, `${toActId(actId)}/adsets`, AD_SET_FIELDS, graphAdSetSchema, toActId(actId));
  }

  async listAds(token: string, actId: string): Promise<GraphAd[]> {
    return this.list(token, `${toActId(actId)}/ads`, AD_FIELDS, graphAdSchema, toActId(actId));
  }

  /** Insights rows for an object (act_…, campaign, ad set or ad id), all pages, parsed. */
  async getInsights(token: string, objectId: string, options: InsightsOptions): Promise<InsightsRow[]> {
    const accountId = objectId.startsWith('act_') ? objectId : options.accountId;
    const params = insightsParams(options, this.insightsPageSize);
    const mode = options.async ?? 'auto';
    const viaReport = async (): Promise<InsightsRow[]> => {
      const polling = { sleep: this.sleep, initialIntervalMs: 1_000, maxIntervalMs: 15_000, maxPolls: 120 };
      const rows = await runInsightsReport(this.transport, polling, {
        token,
        objectId,
        params,
        ...(accountId ? { accountId } : {}),
      });
      return rows.map(parseInsightsRow);
    };
    if (mode === 'always' || (mode === 'auto' && prefersAsync(options))) return viaReport();
    try {
      const rows = await this.transport.listAll(
        { method: 'GET', path: `${objectId}/insights`, params, token, ...(accountId ? { accountId } : {}) },
        insightsWireRowSchema,
      );
      return rows.map(parseInsightsRow);
    } catch (error) {
      if (mode === 'auto' && error instanceof MetaInvalidParameterError && error.subcode === TOO_MUCH_DATA_SUBCODE)
        return viaReport();
      throw error;
    }
  }

  async updateStatus(
    token: string,
    id: string,
    status: EntityStatus,
    options: { accountId?: string } = {},
  ): Promise<void> {
    await this.update(token, id, { status }, options.accountId);
  }

  /** Budgets in MINOR units of the account currency (cents, satang; yen for JPY). */
  async updateBudget(
    token: string,
    id: string,
    budget: { dailyBudget?: number; lifetimeBudget?: number },
    options: { accountId?: string } = {},
  ): Promise<void> {
    await this.update(
      token,
      id,
      { daily_budget: budget.dailyBudget, lifetime_budget: budget.lifetimeBudget },
      options.accountId,
    );
  }

  /** Many calls in batches of at most 50; answers come back in order, failures as entries, not throws. */
  async batch(token: string, requests: readonly BatchRequest[]): Promise<BatchResult[]> {
    return runBatch(this.transport, token, requests);
  }

  /** The latest usage Meta reported for an ad account (act_… or numeric id). */
  usage(actId: string): AccountUsage | undefined {
    return this.tracker.usage(actId);
  }

  appUsage(): AppUsage | undefined {
    return this.tracker.appUsage();
  }

  private async tokenRequest(params: Record<string, string>): Promise<TokenResult> {
    const request: GraphRequest = {
      method: 'GET',
      path: 'oauth/access_token',
      params: { client_id: this.appId, client_secret: this.requireSecret(), ...params },
    };
    const body = this.transport.parse(tokenResponseSchema, await this.transport.call(request), request);
    return {
      accessToken: body.access_token,
      tokenType: body.token_type ?? 'bearer',
      ...(body.expires_in !== undefined ? { expiresIn: body.expires_in } : {}),
    };
  }

  private async list<T>(
    token: string,
    path: string,
    fields: string[],
    schema: z.ZodType<T>,
    accountId?: string,
  ): Promise<T[]> {
    const request: GraphRequest = {
      method: 'GET',
      path,
      params: { fields: fields.join(','), limit: this.pageSize },
      token,
      ...(accountId ? { accountId } : {}),
    };
    return this.transport.listAll(request, schema);
  }

  private async getObject<T>(
    token: string,
    id: string,
    fields: string[],
    schema: z.ZodType<T>,
    accountId?: string,
  ): Promise<T> {
    const request: GraphRequest = {
      method: 'GET',
      path: id,
      params: { fields: fields.join(',') },
      token,
      ...(accountId ? { accountId } : {}),
    };
    return this.transport.parse(schema, await this.transport.call(request), request);
  }

  private async update(
    token: string,
    id: string,
    params: Record<string, string | number | undefined>,
    accountId?: string,
  ): Promise<void> {
    const request: GraphRequest = { method: 'POST', path: id, params, token, ...(accountId ? { accountId } : {}) };
    this.transport.parse(successSchema, await this.transport.call(request), request);
  }

  private requireSecret(): string {
    if (!this.appSecret) throw new Error('MetaClient: appSecret is required for this call');
    return this.appSecret;
  }
}
