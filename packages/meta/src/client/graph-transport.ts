import { createHmac } from 'node:crypto';
import type { z } from 'zod';
import {
  errorInitFromBody,
  MetaApiError,
  MetaBudgetLimitError,
  MetaRateLimitError,
  MetaTransientError,
  toMetaError,
  type GraphErrorBody,
} from './errors.ts';
import {
  callKind,
  callOutcome,
  tell,
  type MetaCallOutcome,
  type MetaObserver,
  type MetaWaitReason,
} from './observer.ts';
import { redactText, redactUrl, SECRET_PARAMS } from './redact.ts';
import type { UsageTracker } from './usage-tracker.ts';
import { graphListSchema } from './wire-types.ts';

/** Structured logger (pino's call shape). Only redacted URLs are ever passed to it. */
export interface MetaLogger {
  debug(data: Record<string, unknown>, message: string): void;
  warn(data: Record<string, unknown>, message: string): void;
}

export type ParamValue = string | number | boolean | undefined;

export interface GraphRequest {
  /** A real DELETE, never a POST with `method=delete` (method override is closed to new apps). */
  method: 'GET' | 'POST' | 'DELETE';
  /** Path after the version, e.g. `act_1/campaigns`; or `url`, an absolute link to follow as given. */
  path?: string;
  url?: string;
  params?: Record<string, ParamValue>;
  token?: string;
  /** The ad account the call concerns, for usage tracking and throttling. */
  accountId?: string;
  /** Further accounts whose throttle the call must respect (a batch touching several accounts). */
  alsoAccountIds?: readonly string[];
  /** A budget write: a code 17 answer is the budget-change limit (MetaBudgetLimitError), never retried. */
  budgetWrite?: boolean;
  /** Never resend: a failure may have applied part of the call (a batch with writes). */
  noRetry?: boolean;
}

export interface TransportSettings {
  graphBaseUrl: string;
  version: string;
  appSecret: string | undefined;
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random: () => number;
  maxRetries: number;
  maxRateLimitRetries: number;
  maxRateLimitWaitMs: number;
  rateLimitFallbackMs: number;
  timeoutMs: number;
  logger: MetaLogger | undefined;
  observer: MetaObserver | undefined;
  usage: UsageTracker;
}

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 30_000;

/** One HTTP exchange with the Graph API, with usage tracking, throttling, error mapping and retries. */
export class GraphTransport {
  private readonly origin: string;

  constructor(private readonly settings: TransportSettings) {
    this.origin = new URL(settings.graphBaseUrl).origin;
  }

  /**
   * Sends a call, first waiting out any throttle Meta announced for the account. Transient failures are retried
   * with exponential backoff and jitter; rate limits after the announced wait, a bounded number of times;
   * everything else is thrown at once.
   */
  async call(request: GraphRequest): Promise<unknown> {
    const { settings } = this;
    let transientRetries = 0;
    let rateLimitRetries = 0;
    let backoff = 0;
    let backoffReason: MetaWaitReason = 'transient';
    for (;;) {
      const accounts = [request.accountId, ...(request.alsoAccountIds ?? [])];
      const throttle = Math.max(0, ...accounts.map((id) => settings.usage.waitMs(id, settings.now())));
      const wait = Math.max(backoff, throttle);
      if (wait > settings.maxRateLimitWaitMs) {
        throw new MetaRateLimitError({
          message: `Meta asked to pause calls for ${Math.ceil(wait / 1000)} s, longer than this client waits; try again later`,
          code: 0,
          type: 'ClientThrottle',
          retryAfterMs: wait,
        });
      }
      if (wait > 0) {
        await settings.sleep(wait);
        tell(settings.observer, 'wait', {
          reason: backoff > 0 && backoff >= throttle ? backoffReason : 'throttle',
          seconds: wait / 1000,
        });
        for (const id of accounts) settings.usage.release(id);
      }
      const started = settings.now();
      try {
        const answer = await this.send(request);
        this.notifyCall(request, 'ok', started);
        return answer;
      } catch (error) {
        this.notifyCall(request, callOutcome(error), started);
        if (request.noRetry || error instanceof MetaBudgetLimitError) throw error;
        if (error instanceof MetaRateLimitError && rateLimitRetries < settings.maxRateLimitRetries) {
          rateLimitRetries++;
          backoffReason = 'rate_limit';
          backoff = error.retryAfterMs ?? settings.rateLimitFallbackMs;
          if (backoff > settings.maxRateLimitWaitMs) throw error;
          this.log(
            'warn',
            request,
            { code: error.code, waitMs: backoff, attempt: rateLimitRetries },
            'meta rate limited; waiting',
          );
          continue;
        }
        if (error instanceof MetaTransientError && transientRetries < settings.maxRetries) {
          backoffReason = 'transient';
          backoff = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** transientRetries) * (0.5 + settings.random() / 2);
          transientRetries++;
          this.log(
            'warn',
            request,
            { code: error.code, waitMs: Math.round(backoff), attempt: transientRetries },
            'meta transient error; retrying',
          );
          continue;
        }
        throw error;
      }
    }
  }

  /**
   * Follows `paging.next` until it is absent and returns every item, each parsed. Meta's links carry the token but
   * not the appsecret_proof, so each followed link is sent with the proof added (see send).
   */
  async listAll<T>(request: GraphRequest, itemSchema: z.ZodType<T>): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    let next: GraphRequest | undefined = request;
    while (next) {
      const current: GraphRequest = next;
      const page: z.infer<typeof graphListSchema> = this.parse(graphListSchema, await this.call(current), current);
      for (const item of page.data) items.push(this.parse(itemSchema, item, current));
      const link: string | undefined = page.paging?.next;
      if (!link) break;
      if (seen.has(link))
        throw new MetaApiError({
          message: 'Graph paging returned the same next link twice',
          code: 0,
          url: redactUrl(link),
        });
      seen.add(link);
      next = {
        method: 'GET',
        url: link,
        ...(request.token ? { token: request.token } : {}),
        ...(request.accountId ? { accountId: request.accountId } : {}),
      };
    }
    return items;
  }

  parse<T>(schema: z.ZodType<T>, value: unknown, request: GraphRequest): T {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    throw new MetaApiError({
      message: `Unexpected Graph API answer: ${issue ? `${issue.path.join('.')} ${issue.message}` : 'invalid shape'}`,
      code: 0,
      type: 'UnexpectedResponse',
      method: request.method,
      url: redactUrl(this.urlOf(request).toString()),
    });
  }

  private urlOf(request: GraphRequest): URL {
    if (request.url) {
      const url = new URL(request.url);
      // A link naming another origin (a proxy in front of the sandbox rewrote Host or the scheme) is followed on
      // the configured origin, path and query as given: the token is only ever sent where it was configured to go.
      return url.origin === this.origin ? url : new URL(`${url.pathname}${url.search}`, this.origin);
    }
    return new URL(`${this.settings.graphBaseUrl}/${this.settings.version}/${request.path ?? ''}`);
  }

  private async send(request: GraphRequest): Promise<unknown> {
    const { settings } = this;
    const url = this.urlOf(request);
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(request.params ?? {})) {
      if (value !== undefined) params.set(name, String(value));
    }
    // Every call that carries a token carries the proof, followed links included: an app with "Require App
    // Secret" on refuses any call without it, and Meta's next links do not include it.
    if (request.token && settings.appSecret) {
      params.set('appsecret_proof', appSecretProof(settings.appSecret, request.token));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.token) headers.authorization = `Bearer ${request.token}`;
    let body: string | undefined;
    if (request.method === 'GET' || request.method === 'DELETE') {
      params.forEach((value, name) => url.searchParams.set(name, value));
    } else {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = params.toString();
    }
    const secrets = [
      request.token,
      settings.appSecret,
      ...[...params].filter(([name]) => SECRET_PARAMS.includes(name)).map(([, value]) => value),
    ];
    const safeUrl = redactUrl(url.toString());
    const started = settings.now();

    let response: Response;
    let text: string;
    try {
      response = await settings.fetch(url, {
        method: request.method,
        headers,
        body,
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const reason =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
          ? `timed out after ${settings.timeoutMs} ms`
          : `network error: ${describeCause(error)}`;
      throw new MetaTransientError({
        message: redactText(`Graph API call ${reason}`, secrets),
        code: 0,
        type: 'NetworkError',
        method: request.method,
        url: safeUrl,
      });
    }
    settings.usage.observe(response.headers, request.accountId, settings.now());
    if (settings.observer?.usage) {
      const account = request.accountId ? settings.usage.usage(request.accountId) : undefined;
      tell(settings.observer, 'usage', { account, app: settings.usage.appUsage() });
    }
    this.log('debug', request, { url: safeUrl, status: response.status, ms: settings.now() - started }, 'meta call');

    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const errorBody = (parsed as { error?: GraphErrorBody } | undefined)?.error;
    if (errorBody && typeof errorBody === 'object') {
      const init = errorInitFromBody(errorBody, response.status);
      const retryAfterMs = settings.usage.announcedWaitMs(response.headers, request.accountId);
      throw toMetaError(
        {
          ...init,
          message: redactText(init.message, secrets),
          ...(init.userMessage ? { userMessage: redactText(init.userMessage, secrets) } : {}),
          method: request.method,
          url: safeUrl,
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        },
        { budgetWrite: request.budgetWrite === true },
      );
    }
    if (!response.ok || parsed === undefined) {
      throw toMetaError({
        message: `Graph API answered HTTP ${response.status}${parsed === undefined ? ' without JSON' : ''}`,
        code: 0,
        httpStatus: response.status,
        method: request.method,
        url: safeUrl,
      });
    }
    return parsed;
  }

  private notifyCall(request: GraphRequest, outcome: MetaCallOutcome, started: number): void {
    if (!this.settings.observer?.call) return;
    const path = request.url ? new URL(request.url).pathname : (request.path ?? '');
    tell(this.settings.observer, 'call', {
      kind: callKind(path, request.params),
      method: request.method,
      outcome,
      seconds: Math.max(0, this.settings.now() - started) / 1000,
    });
  }

  private log(level: 'debug' | 'warn', request: GraphRequest, data: Record<string, unknown>, message: string): void {
    const logger = this.settings.logger;
    if (!logger) return;
    const url =
      data.url ??
      redactUrl(request.url ?? `${this.settings.graphBaseUrl}/${this.settings.version}/${request.path ?? ''}`);
    logger[level]({ method: request.method, ...data, url }, message);
  }
}

/** hex HMAC-SHA256 of the access token keyed with the app secret, as Meta defines appsecret_proof. */
export function appSecretProof(appSecret: string, token: string): string {
  return createHmac('sha256', appSecret).update(token).digest('hex');
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) return `${error.message} (${(cause as { code?: string }).code ?? cause.message})`;
  return error.message;
}
