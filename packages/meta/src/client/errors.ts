/** The `error` object of a Graph API answer. */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
  fbtrace_id?: string;
  is_transient?: boolean;
}

export interface MetaErrorInit {
  message: string;
  code: number;
  subcode?: number;
  type?: string;
  fbtraceId?: string;
  httpStatus?: number;
  isTransient?: boolean;
  userTitle?: string;
  userMessage?: string;
  /** HTTP method and redacted URL of the call that failed. */
  method?: string;
  url?: string;
  retryAfterMs?: number;
}

/** Any failure talking to Meta. Never carries a token or the app secret. */
export class MetaApiError extends Error {
  readonly code: number;
  readonly subcode: number | undefined;
  readonly type: string | undefined;
  readonly fbtraceId: string | undefined;
  readonly httpStatus: number | undefined;
  readonly isTransient: boolean;
  readonly userTitle: string | undefined;
  readonly userMessage: string | undefined;
  readonly method: string | undefined;
  readonly url: string | undefined;

  constructor(init: MetaErrorInit) {
    super(init.message);
    this.name = new.target.name;
    this.code = init.code;
    this.subcode = init.subcode;
    this.type = init.type;
    this.fbtraceId = init.fbtraceId;
    this.httpStatus = init.httpStatus;
    this.isTransient = init.isTransient ?? false;
    this.userTitle = init.userTitle;
    this.userMessage = init.userMessage;
    this.method = init.method;
    this.url = init.url;
  }
}

/** The token expired or was revoked (102, 190): the ad account needs the user to connect it again. */
export class MetaTokenExpiredError extends MetaApiError {}

/** A permission is missing (10, 200–299). */
export class MetaPermissionError extends MetaApiError {}

/** A rate limit (4, 17, 32, 613, 80000–80014); `retryAfterMs` is set when Meta said how long to wait. */
export class MetaRateLimitError extends MetaApiError {
  readonly retryAfterMs: number | undefined;

  constructor(init: MetaErrorInit) {
    super({ ...init, isTransient: true });
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** A parameter Meta refused (100): retrying the same call cannot help. */
export class MetaInvalidParameterError extends MetaApiError {}

/**
 * Meta retired what the call uses (12): for an app created from 4 November 2026, a multi-ID read, a field alias,
 * method override, JSONP or date formatting on any version (ADR 0120). A bug in the caller, never retried.
 */
export class MetaRetiredFeatureError extends MetaApiError {}

/** Worth retrying: codes 1 and 2, is_transient, HTTP 5xx, network failures and timeouts. */
export class MetaTransientError extends MetaApiError {
  constructor(init: MetaErrorInit) {
    super({ ...init, isTransient: true });
  }
}

/**
 * The ad set's budget was changed too often (Meta allows about 4 changes an hour and then answers plain code 17
 * "User request limit reached", blocking budget changes for the hour). Raised for any 17 on a budget write and
 * never retried: the caller postpones the change (`retryAfterMs`, an hour unless Meta announced a time).
 */
export class MetaBudgetLimitError extends MetaRateLimitError {}

/**
 * Meta would not answer this insights request synchronously: too much data (HTTP 500, code 1 "Please reduce the
 * amount of data…", sometimes subcode 99) or a timeout (100/1504018, 2/1504038). Retrying the same request cannot
 * help: ask through an async report run or for less.
 */
export class MetaTooMuchDataError extends MetaApiError {}

/** How long a budget-limit answer holds an ad set when Meta gives no regain time. */
export const BUDGET_LIMIT_HOLD_MS = 60 * 60_000;
/** Subcode seen in third-party code only for "too much data"; recognised, never relied on. */
const LEGACY_TOO_MUCH_DATA_SUBCODE = 1487534;
const REDUCE_DATA = /reduce the amount of data/i;

/** The answers that mean "ask for this insights data in another way": never retried as they are. */
export function isTooMuchData(init: Pick<MetaErrorInit, 'code' | 'subcode' | 'message'>): boolean {
  if (init.code === 1 && (init.subcode === 99 || REDUCE_DATA.test(init.message))) return true;
  if (init.code === 100 && init.subcode === 1504018) return true;
  if (init.code === 2 && init.subcode === 1504038) return true;
  return init.code === 100 && init.subcode === LEGACY_TOO_MUCH_DATA_SUBCODE;
}

function isRateLimitCode(code: number): boolean {
  return code === 4 || code === 17 || code === 32 || code === 613 || (code >= 80000 && code <= 80014);
}

/**
 * Picks the error class for a Graph error: token, budget limit (a 17 on a budget write), too much data, rate limit,
 * permission, transient, parameter, else generic.
 */
export function toMetaError(init: MetaErrorInit, context: { budgetWrite?: boolean } = {}): MetaApiError {
  const { code } = init;
  if (code === 102 || code === 190) return new MetaTokenExpiredError(init);
  if (code === 17 && context.budgetWrite) {
    return new MetaBudgetLimitError({ ...init, retryAfterMs: init.retryAfterMs ?? BUDGET_LIMIT_HOLD_MS });
  }
  if (isTooMuchData(init)) return new MetaTooMuchDataError(init);
  if (isRateLimitCode(code)) return new MetaRateLimitError(init);
  if (code === 10 || (code >= 200 && code <= 299)) return new MetaPermissionError(init);
  if (code === 1 || code === 2 || init.isTransient || (init.httpStatus ?? 0) >= 500)
    return new MetaTransientError(init);
  if (code === 100) return new MetaInvalidParameterError(init);
  if (code === 12) return new MetaRetiredFeatureError(init);
  return new MetaApiError(init);
}

export function errorInitFromBody(body: GraphErrorBody, httpStatus: number | undefined): MetaErrorInit {
  return {
    message: body.message ?? 'Unknown Graph API error',
    code: typeof body.code === 'number' ? body.code : 0,
    ...(body.error_subcode !== undefined ? { subcode: body.error_subcode } : {}),
    ...(body.type !== undefined ? { type: body.type } : {}),
    ...(body.fbtrace_id !== undefined ? { fbtraceId: body.fbtrace_id } : {}),
    ...(httpStatus !== undefined ? { httpStatus } : {}),
    isTransient: body.is_transient === true,
    ...(body.error_user_title !== undefined ? { userTitle: body.error_user_title } : {}),
    ...(body.error_user_msg !== undefined ? { userMessage: body.error_user_msg } : {}),
  };
}
