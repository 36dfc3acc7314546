import { runInsightsReport } from './async-report.ts';
import { runBatch, type BatchRequest, type BatchResult } from './batch.ts';
import { MetaRateLimitError, MetaTokenExpiredError, MetaTooMuchDataError } from './errors.ts';
import { readLiveValues, writeFields, type FieldWrite, type LiveField, type LiveValues } from './live-fields.ts';
import { dialogUrl, requestToken, type DialogUrlInput, type TokenResult } from './oauth.ts';
import { GraphTransport, type GraphRequest, type MetaLogger } from './graph-transport.ts';
import type { MetaObserver } from './observer.ts';
import { insightsParams, parseInsightsRow, prefersAsync, type InsightsOptions, type InsightsRow } from './insights.ts';
import { z } from 'zod';
import { UsageTracker, type AccountUsage, type AppUsage } from './usage-tracker.ts';
import {
  ACTIVITY_FIELDS,
  AD_ACCOUNT_FIELDS,
  AD_FIELDS,
  AD_SET_FIELDS,
  CAMPAIGN_FIELDS,
  debugTokenSchema,
  graphActivitySchema,
  graphAdAccountSchema,
  graphAdSchema,
  graphAdSetSchema,
  graphCampaignSchema,
  graphObjectSchema,
  insightsWireRowSchema,
  type DebugTokenData,
  type GraphActivity,
  type GraphAd,
  type GraphAdAccount,
  type GraphAdSet,
  type GraphCampaign,
  type GraphObject,
} from './wire-types.ts';

export interface MetaClientOptions {
  /** Default https://graph.facebook.com; the sandbox's URL to talk to it instead. */
  graphBaseUrl?: string;
  /** Default https://www.facebook.com. */
  dialogBaseUrl?: string;
  /** Default v27.0. */
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
  /** Page size for insights rows (default 500: big synchronous pages are what Meta refuses as "too much data"). */
  insightsPageSize?: number;
  /** Per-request timeout (default 60 s). */
  timeoutMs?: number;
  logger?: MetaLogger;
  /** Told of every call, pause and usage report (the server's metrics); see observer.ts. */
  observer?: MetaObserver;
}

export type EntityStatus = 'ACTIVE' | 'PAUSED';

export interface WriteOptions {
  /** The ad account of the object, for throttling. */
  accountId?: string;
  /** Dry run: Meta runs its checks and answers success or the error, without changing anything. */
  validateOnly?: boolean;
}

export type { DialogUrlInput, TokenResult };

const successSchema = z.looseObject({ success: z.boolean() });
const budgetScheduleCreatedSchema = z.looseObject({ id: z.string() });
const budgetScheduleListSchema = z.looseObject({
  data: z.array(
    z.looseObject({
      id: z.string(),
      budget_value: z.union([z.number(), z.string()]),
      budget_value_type: z.enum(['ABSOLUTE', 'MULTIPLIER']),
      time_start: z.union([z.number(), z.string()]),
      time_end: z.union([z.number(), z.string()]),
    }),
  ),
});

/** One budget schedule of a campaign or an ad set, as the client hands it out. */
export interface BudgetSchedule {
  id: string;
  budgetValue: number;
  budgetValueType: 'ABSOLUTE' | 'MULTIPLIER';
  timeStart: Date;
  timeEnd: Date;
}

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
    this.version = options.version ?? 'v27.0';
    this.appId = options.appId;
    this.appSecret = options.appSecret || undefined;
    this.pageSize = Math.min(500, Math.max(1, options.pageSize ?? 500));
    this.insightsPageSize = Math.min(5000, Math.max(1, options.insightsPageSize ?? 500));
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
      observer: options.observer,
      usage: this.tracker,
    });
  }

  getDialogUrl(input: DialogUrlInput): string {
    return dialogUrl(`${this.dialogBaseUrl}/${this.version}`, this.appId, input);
  }

  async exchangeCode(input: { code: string; redirectUri: string }): Promise<TokenResult> {
    return requestToken(this.transport, this.appId, this.requireSecret(), {
      code: input.code,
      redirect_uri: input.redirectUri,
    });
  }

  async exchangeLongLivedToken(shortToken: string): Promise<TokenResult> {
    return requestToken(this.transport, this.appId, this.requireSecret(), {
      grant_type: 'fb_exchange_token',
      fb_exchange_token: shortToken,
    });
  }

  /** The app's own access token (client_credentials): the call that proves an app id and secret belong together. */
  async appAccessToken(): Promise<TokenResult> {
    return requestToken(this.transport, this.appId, this.requireSecret(), { grant_type: 'client_credentials' });
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

  /** The permissions a user token holds now (the user may have unticked some on the consent screen). */
  async grantedScopes(inputToken: string): Promise<string[]> {
    return (await this.inspectToken(inputToken)).scopes;
  }

  /**
   * What debug_token says of a token: its permissions, and when it stops working. Meta answers `expires_at: 0` for
   * a token that does not expire (a system user's): null; no `expires_at` at all: undefined (not known).
   */
  async inspectToken(inputToken: string): Promise<{
    scopes: string[];
    expiresAt: Date | null | undefined;
    /** debug_token's `type`: USER, SYSTEM_USER (a Business Manager system user's), PAGE, APP. */
    type?: string;
    isValid: boolean;
  }> {
    const data = await this.debugToken(inputToken);
    const at = data.expires_at;
    const expiresAt = at === undefined ? undefined : at === 0 ? null : new Date(at * 1000);
    return {
      scopes: data.is_valid ? (data.scopes ?? []) : [],
      expiresAt,
      ...(data.type ? { type: data.type } : {}),
      isValid: data.is_valid,
    };
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

  /**
   * The account's activity history from `since` (to `until`, default now), newest first: who changed what and
   * through which app. Named by the account, so the account's throttle applies as to every other read of it.
   */
  async listActivities(
    token: string,
    actId: string,
    range: { since: Date; until?: Date; objectId?: string },
  ): Promise<GraphActivity[]> {
    const id = toActId(actId);
    const seconds = (instant: Date) => String(Math.floor(instant.getTime() / 1000));
    return this.list(token, `${id}/activities`, ACTIVITY_FIELDS, graphActivitySchema, id, {
      since: seconds(range.since),
      ...(range.until ? { until: seconds(range.until) } : {}),
      ...(range.objectId ? { oid: range.objectId } : {}),
    });
  }

  /** One object (campaign, ad set, ad, act_…) with the fields asked for, e.g. the live budget before a write. */
  async getEntity(
    token: string,
    id: string,
    fields: readonly string[],
    options: { accountId?: string } = {},
  ): Promise<GraphObject> {
    const accountId = id.startsWith('act_') ? id : options.accountId;
    return this.getObject(token, id, [...fields], graphObjectSchema, accountId);
  }

  /**
   * Many objects by id, as GET items of batch requests (50 to a call; a multi-ID `GET /?ids=` is closed to new
   * apps, ADR 0120). The answer maps each id Meta answered to its object; an id it refused (deleted, not ours) is
   * absent. A rate limit or an expired token on any item is thrown.
   */
  async getEntities(
    token: string,
    ids: readonly string[],
    fields: readonly string[],
    options: { accountId?: string } = {},
  ): Promise<Record<string, GraphObject>> {
    const unique = [...new Set(ids)];
    const query = fields.length > 0 ? `?fields=${fields.map(encodeURIComponent).join(',')}` : '';
    const answers = await runBatch(
      this.transport,
      token,
      unique.map((id) => ({
        method: 'GET' as const,
        relativeUrl: `${encodeURIComponent(id)}${query}`,
        ...(options.accountId ? { accountId: options.accountId } : {}),
      })),
    );
    const result: Record<string, GraphObject> = {};
    answers.forEach((answer, index) => {
      const id = unique[index];
      if (answer.error instanceof MetaRateLimitError || answer.error instanceof MetaTokenExpiredError)
        throw answer.error;
      const parsed = graphObjectSchema.safeParse(answer.body);
      if (id !== undefined && !answer.error && parsed.success) result[id] = parsed.data;
    });
    return result;
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
      // Meta's "too much data" and insights timeouts: the same request would fail again, a report run will not.
      if (mode === 'auto' && error instanceof MetaTooMuchDataError) return viaReport();
      throw error;
    }
  }

  async updateStatus(token: string, id: string, status: EntityStatus, options: WriteOptions = {}): Promise<void> {
    await this.update(token, id, { status }, options, false);
  }

  /**
   * Budgets in MINOR units of the account currency (cents, satang; yen for JPY). A code 17 answer raises
   * MetaBudgetLimitError at once (the ad set's budget changed too often this hour): postpone, do not retry.
   */
  async updateBudget(
    token: string,
    id: string,
    budget: { dailyBudget?: number; lifetimeBudget?: number },
    options: WriteOptions = {},
  ): Promise<void> {
    await this.update(
      token,
      id,
      { daily_budget: budget.dailyBudget, lifetime_budget: budget.lifetimeBudget },
      options,
      true,
    );
  }

  /**
   * The live status and budgets of one ad account's objects, read right before changing them: batched, and waiting
   * for that account's throttle only (see live-fields.ts).
   */
  async readLiveValues(
    token: string,
    actId: string,
    wanted: readonly { id: string; field: LiveField }[],
  ): Promise<Map<string, LiveValues>> {
    return readLiveValues(this.transport, token, toActId(actId), wanted);
  }

  /** Status and budget writes to one ad account's objects, batched; each answered on its own, in order. */
  async writeFields(token: string, actId: string, writes: readonly FieldWrite[]): Promise<BatchResult[]> {
    return writeFields(this.transport, token, toActId(actId), writes);
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

  private async list<T>(
    token: string,
    path: string,
    fields: string[],
    schema: z.ZodType<T>,
    accountId?: string,
    extra: Record<string, string> = {},
  ): Promise<T[]> {
    const request: GraphRequest = {
      method: 'GET',
      path,
      params: { ...extra, fields: fields.join(','), limit: this.pageSize },
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

  /**
   * Raises a campaign's or an ad set's own budget for a window (Meta's budget scheduling): `budgetValue` in the
   * account's minor units with ABSOLUTE, or a percentage with MULTIPLIER (Meta's example: 140 is $140 or 140 %).
   * Meta refuses (100) an object that holds no budget of its own. Answers the schedule's id.
   */
  async createBudgetSchedule(
    token: string,
    objectId: string,
    schedule: { budgetValue: number; budgetValueType: 'ABSOLUTE' | 'MULTIPLIER'; timeStart: Date; timeEnd: Date },
    options: WriteOptions = {},
  ): Promise<string> {
    const request: GraphRequest = {
      method: 'POST',
      path: `${objectId}/budget_schedules`,
      params: {
        budget_value: schedule.budgetValue,
        budget_value_type: schedule.budgetValueType,
        time_start: Math.floor(schedule.timeStart.getTime() / 1000),
        time_end: Math.floor(schedule.timeEnd.getTime() / 1000),
      },
      token,
      // A retried create could leave two schedules: the caller settles an unknown outcome by listing them.
      noRetry: true,
      ...(options.accountId ? { accountId: options.accountId } : {}),
    };
    return this.transport.parse(budgetScheduleCreatedSchema, await this.transport.call(request), request).id;
  }

  /** The object's budget schedules (Meta's `time_start`: those ending after it; `time_stop`: starting before it). */
  async listBudgetSchedules(
    token: string,
    objectId: string,
    window: { from?: Date; to?: Date } = {},
    options: WriteOptions = {},
  ): Promise<BudgetSchedule[]> {
    const request: GraphRequest = {
      method: 'GET',
      path: `${objectId}/budget_schedules`,
      params: {
        ...(window.from ? { time_start: Math.floor(window.from.getTime() / 1000) } : {}),
        ...(window.to ? { time_stop: Math.floor(window.to.getTime() / 1000) } : {}),
      },
      token,
      ...(options.accountId ? { accountId: options.accountId } : {}),
    };
    return this.transport
      .parse(budgetScheduleListSchema, await this.transport.call(request), request)
      .data.map((row) => ({
        id: row.id,
        budgetValue: Number(row.budget_value),
        budgetValueType: row.budget_value_type,
        timeStart: new Date(Number(row.time_start) * 1000),
        timeEnd: new Date(Number(row.time_end) * 1000),
      }));
  }

  /** Removes a budget schedule (what reverting a boost does). */
  async deleteBudgetSchedule(token: string, scheduleId: string, options: WriteOptions = {}): Promise<void> {
    const request: GraphRequest = {
      method: 'DELETE',
      path: scheduleId,
      token,
      ...(options.accountId ? { accountId: options.accountId } : {}),
    };
    this.transport.parse(successSchema, await this.transport.call(request), request);
  }

  private async update(
    token: string,
    id: string,
    params: Record<string, string | number | undefined>,
    options: WriteOptions,
    budgetWrite: boolean,
  ): Promise<void> {
    const request: GraphRequest = {
      method: 'POST',
      path: id,
      params: { ...params, ...(options.validateOnly ? { execution_options: '["validate_only"]' } : {}) },
      token,
      budgetWrite,
      ...(options.accountId ? { accountId: options.accountId } : {}),
    };
    this.transport.parse(successSchema, await this.transport.call(request), request);
  }

  private requireSecret(): string {
    if (!this.appSecret) throw new Error('MetaClient: appSecret is required for this call');
    return this.appSecret;
  }
}
