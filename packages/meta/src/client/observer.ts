import {
  MetaBudgetLimitError,
  MetaInvalidParameterError,
  MetaPermissionError,
  MetaRateLimitError,
  MetaTokenExpiredError,
  MetaTooMuchDataError,
  MetaTransientError,
} from './errors.ts';
import type { AccountUsage, AppUsage } from './usage-tracker.ts';

/**
 * The endpoint family of a Graph call: a small fixed set (never an id), so whoever counts calls by it keeps a
 * bounded number of series.
 */
export type MetaCallKind =
  | 'oauth'
  | 'debug_token'
  | 'ad_accounts'
  | 'campaigns'
  | 'ad_sets'
  | 'ads'
  | 'activities'
  | 'insights'
  | 'object'
  | 'objects'
  | 'batch'
  | 'other';

/** How one HTTP exchange with the Graph API ended. */
export type MetaCallOutcome =
  | 'ok'
  | 'rate_limited'
  | 'budget_limited'
  | 'transient'
  | 'token_expired'
  | 'permission'
  | 'invalid_parameter'
  | 'too_much_data'
  | 'error';

/** Why the client paused before a call: the throttle Meta's usage headers asked for, or a retry's backoff. */
export type MetaWaitReason = 'throttle' | 'rate_limit' | 'transient';

/**
 * What the client reports as it works, for whoever watches it (the server's metrics). Every method is optional;
 * a failing observer never fails a call. Nothing reported carries a token, a URL or an object id.
 */
export interface MetaObserver {
  /** One HTTP exchange (each retry is one), after its answer or failure. */
  call?(event: {
    kind: MetaCallKind;
    method: 'GET' | 'POST' | 'DELETE';
    outcome: MetaCallOutcome;
    seconds: number;
  }): void;
  /** A pause before a call, slept through. */
  wait?(event: { reason: MetaWaitReason; seconds: number }): void;
  /** The usage Meta's headers reported on an answer: the call's ad account (numeric id) and the app. */
  usage?(event: { account: AccountUsage | undefined; app: AppUsage | undefined }): void;
}

/** Tells the observer; what it does with the news is its own business, and its failure never fails a call. */
export function tell<K extends keyof MetaObserver>(
  observer: MetaObserver | undefined,
  event: K,
  data: Parameters<NonNullable<MetaObserver[K]>>[0],
): void {
  try {
    (observer?.[event] as ((value: typeof data) => void) | undefined)?.(data);
  } catch {
    // Deliberately ignored: see above.
  }
}

/** Graph's endpoints by the last segment of their path. */
const KIND_BY_EDGE: Record<string, MetaCallKind> = {
  access_token: 'oauth',
  debug_token: 'debug_token',
  adaccounts: 'ad_accounts',
  campaigns: 'campaigns',
  adsets: 'ad_sets',
  ads: 'ads',
  activities: 'activities',
  insights: 'insights',
};

/** A Graph object id: digits, or an ad account's `act_` and digits. */
const OBJECT_ID = /^(act_)?\d+$/;

/**
 * The family of a call from its path after the version (or a followed link's path) and its parameters: the root with
 * `batch` is a batch, with `ids` a read of several objects, and an id alone one object (a read, a write, a report's
 * status).
 */
export function callKind(path: string, params: Record<string, unknown> | undefined): MetaCallKind {
  const segments = (path.split('?')[0] ?? '')
    .split('/')
    .filter((segment) => segment !== '' && !/^v\d+\.\d+$/.test(segment));
  if (segments.length === 0)
    return params?.batch !== undefined ? 'batch' : params?.ids !== undefined ? 'objects' : 'other';
  const last = segments.at(-1) ?? '';
  if (segments.length === 1 && OBJECT_ID.test(last)) return 'object';
  return KIND_BY_EDGE[last] ?? 'other';
}

/** The outcome of a failed exchange, by the error the client made of it. */
export function callOutcome(error: unknown): MetaCallOutcome {
  if (error instanceof MetaBudgetLimitError) return 'budget_limited';
  if (error instanceof MetaRateLimitError) return 'rate_limited';
  if (error instanceof MetaTransientError) return 'transient';
  if (error instanceof MetaTokenExpiredError) return 'token_expired';
  if (error instanceof MetaPermissionError) return 'permission';
  if (error instanceof MetaInvalidParameterError) return 'invalid_parameter';
  if (error instanceof MetaTooMuchDataError) return 'too_much_data';
  return 'error';
}
