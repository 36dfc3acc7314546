import {
  REFRESH_RACE_GRACE_SECONDS,
  WORKSPACE_HEADER,
  type ErrorCode,
  type ErrorEnvelope,
  type ErrorParams,
  type FieldError,
  type RefreshResponse,
} from '@adpilot/contracts';
import { readWorkspaceChoice } from './current-workspace.ts';
import { clearStoredSession, readRefreshToken, readToken, storeTokens } from './session-storage.ts';

export const API_BASE = '/api';

/** A failed API call, carrying the envelope's message, code, field errors and the refusal's figures. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: ErrorCode | 'NETWORK_ERROR',
    readonly errors: FieldError[] = [],
    readonly params: ErrorParams = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  /** Set false for calls that must not trigger the refresh-and-retry dance (login, refresh itself). */
  retryOnUnauthorized?: boolean;
  /**
   * Set false for calls about the user rather than a workspace (the session, the list of workspaces, invitations):
   * they must answer even when the chosen workspace was left meanwhile.
   */
  workspace?: boolean;
  /** What the answer may be (default JSON): `text/event-stream` for an answer streamed as it is made. */
  accept?: string;
}

/** The headers that say which workspace a request acts on: none for the personal one (ADR 0070). */
export function workspaceHeaders(): Record<string, string> {
  const id = readWorkspaceChoice();
  return id ? { [WORKSPACE_HEADER]: id } : {};
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {
  window.location.assign('/login');
};

/** The auth provider registers how a dead session is ended (clear state, go to /login). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

function buildUrl(path: string, query?: Query): string {
  const url = new URL(`${API_BASE}${path}`, window.location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
  }
  return url.pathname + url.search;
}

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = {
    Accept: options.accept ?? 'application/json',
    ...(options.workspace === false ? {} : workspaceHeaders()),
  };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    return await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('Network error: the server could not be reached', 0, 'NETWORK_ERROR');
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as Partial<ErrorEnvelope> | null;
  return new ApiError(
    body?.message ?? `Request failed with status ${response.status}`,
    response.status,
    body?.code ?? 'INTERNAL_ERROR',
    body?.errors ?? [],
    body?.params ?? {},
  );
}

let refreshInFlight: Promise<boolean> | null = null;

/** The Web Locks name the tabs of one browser take turns on to rotate the refresh token they share. */
export const REFRESH_LOCK = 'adpilot:refresh-session';

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** Runs `work` while holding the refresh lock of this origin (every tab's), or at once where Web Locks are missing. */
function inRefreshTurn<T>(work: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  return locks ? locks.request(REFRESH_LOCK, work) : work();
}

/**
 * Silent refresh: one request at a time in this tab, shared by every caller that hit a 401 meanwhile, and one at a
 * time across the tabs, which share the stored tokens. A refresh token is rotated on every use and presenting a
 * used one ends the whole session (ADR 0004), so two tabs waking together must not both present it: the second
 * waits its turn, and finds the access token it could not use already replaced (`stale`: the token the caller's
 * failed request carried), or reads the rotated refresh token when it must refresh after all.
 */
export function refreshSession(stale: string | null = readToken()): Promise<boolean> {
  refreshInFlight ??= inRefreshTurn(async () => {
    const current = readToken();
    if (current && current !== stale) return true;
    const refreshToken = readRefreshToken();
    if (!refreshToken) return false;
    const response = await send('POST', '/auth/refresh', { body: { refreshToken }, workspace: false }).catch(
      () => null,
    );
    if (response?.status === 409) return adoptSuccessor(refreshToken, response);
    if (!response?.ok) return false;
    const body = (await response.json()) as { data?: RefreshResponse };
    if (!body.data?.token) return false;
    storeTokens(body.data.token, body.data.refreshToken);
    return true;
  }).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

/**
 * How long a tab told its refresh token was just rotated waits for the other tab's tokens to reach its storage: most
 * of the server's grace, since a loaded machine delays the storage a tab sees by seconds, and the wait costs only
 * the session a thief already holds.
 */
export const SUCCESSOR_WAIT_MS = (REFRESH_RACE_GRACE_SECONDS - 2) * 1000;
const SUCCESSOR_POLL_MS = 50;

/**
 * The server says the token was rotated a moment ago (ADR 0079). Another tab did it, and the local storage this tab
 * reads may not show that tab's write yet (Chromium hands storage to each tab's process on its own time, Web Lock
 * or not): wait a bounded time for the successor. If none comes, no tab of this browser rotated it, so someone else
 * holds the session: end it, as the server would have for a late replay.
 */
async function adoptSuccessor(presented: string, response: Response): Promise<boolean> {
  const body = (await response.json().catch(() => null)) as ErrorEnvelope | null;
  if (body?.code !== 'REFRESH_TOKEN_ROTATED') return false;
  for (let waited = 0; waited < SUCCESSOR_WAIT_MS; waited += SUCCESSOR_POLL_MS) {
    const stored = readRefreshToken();
    if (stored === null) return false;
    if (stored !== presented) return readToken() !== null;
    await new Promise((resolve) => setTimeout(resolve, SUCCESSOR_POLL_MS));
  }
  await send('POST', '/auth/logout', { body: { refreshToken: presented }, workspace: false }).catch(() => null);
  return false;
}

export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const body = await apiRequestBody<{ data: T } | undefined>(method, path, options);
  return body === undefined ? (undefined as T) : body.data;
}

/**
 * Like `apiRequest`, but answers the whole success envelope, for the few lists that carry more beside `data`
 * (the explorer's totals, accounts and cursor).
 */
export async function apiRequestBody<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiResponse(method, path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/**
 * A successful answer as the server sent it, its body unread (an event stream read as it comes); a failure is
 * thrown as `ApiError` after the same refresh-and-retry as every other call.
 */
export async function apiResponse(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const sentWith = readToken();
  let response = await send(method, path, options);
  if (response.status === 401 && options.retryOnUnauthorized !== false && readToken()) {
    if (await refreshSession(sentWith)) response = await send(method, path, options);
  }
  // A 401 for a session that ended here while the request was out (a logout) is no news: nothing to end, and the
  // page the logout went to must not give way to /login.
  const endedMeanwhile = sentWith !== null && readToken() === null;
  if (response.status === 401 && options.retryOnUnauthorized !== false && !endedMeanwhile) {
    clearStoredSession();
    onUnauthorized();
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('GET', path, options),
  /** The whole success envelope of a GET (lists that carry totals or a cursor beside `data`). */
  getBody: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequestBody<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('DELETE', path, { ...options, body }),
};
