import type { ErrorCode, ErrorEnvelope, FieldError, RefreshResponse } from '@adpilot/contracts';
import { clearStoredSession, readRefreshToken, readToken, storeTokens } from './session-storage.ts';

export const API_BASE = '/api';

/** A failed API call, carrying the envelope's message, code and field errors. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: ErrorCode | 'NETWORK_ERROR',
    readonly errors: FieldError[] = [],
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
  const headers: Record<string, string> = { Accept: 'application/json' };
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
  );
}

let refreshInFlight: Promise<boolean> | null = null;

/** Silent refresh: one request at a time, shared by every caller that hit a 401 meanwhile. */
export function refreshSession(): Promise<boolean> {
  refreshInFlight ??= (async () => {
    const refreshToken = readRefreshToken();
    if (!refreshToken) return false;
    const response = await send('POST', '/auth/refresh', { body: { refreshToken } }).catch(() => null);
    if (!response?.ok) return false;
    const body = (await response.json()) as { data?: RefreshResponse };
    if (!body.data?.token) return false;
    storeTokens(body.data.token, body.data.refreshToken);
    return true;
  })().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  let response = await send(method, path, options);
  if (response.status === 401 && options.retryOnUnauthorized !== false && readToken()) {
    if (await refreshSession()) response = await send(method, path, options);
  }
  if (response.status === 401 && options.retryOnUnauthorized !== false) {
    clearStoredSession();
    onUnauthorized();
  }
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  const body = (await response.json()) as { data: T };
  return body.data;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('DELETE', path, { ...options, body }),
};
