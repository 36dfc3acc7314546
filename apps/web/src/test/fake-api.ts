import { vi } from 'vitest';

export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
  /** The query string's parameters. */
  query: URLSearchParams;
  /** The request's headers, names lower-cased. */
  headers: Record<string, string>;
}

export type Reply = { status: number; body: unknown };
export type Handler = (call: ApiCall) => Reply | Promise<Reply>;

export const ok = (data: unknown, status = 200): Reply => ({ status, body: { success: true, data } });
export const fail = (
  status: number,
  code: string,
  message = 'Something failed',
  errors?: { field: string; message: string }[],
  params?: Record<string, string | number>,
): Reply => ({
  status,
  body: { success: false, code, message, ...(errors ? { errors } : {}), ...(params ? { params } : {}) },
});

/**
 * Replaces `fetch` with a router keyed by "METHOD /path" (without the /api prefix), so the real api client, query
 * hooks and components run unchanged; the envelope is the server's. Unknown routes answer 404. Every call is
 * recorded, and a route can be added or replaced while the test runs (`on`).
 */
export function fakeApi(routes: Record<string, Handler | Reply> = {}) {
  const table = new Map(Object.entries(routes));
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const path = url.pathname.replace(/^\/api/, '');
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    const call: ApiCall = { method, path, body, query: url.searchParams, headers };
    calls.push(call);
    const route = table.get(`${method} ${path}`);
    const reply = typeof route === 'function' ? await route(call) : (route ?? fail(404, 'NOT_FOUND', 'Not found'));
    // A 204 must not carry a body, or the Response constructor throws.
    return new Response(reply.status === 204 ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    on(key: string, handler: Handler | Reply) {
      table.set(key, handler);
    },
    callsTo(method: string, path: string) {
      return calls.filter((call) => call.method === method && call.path === path);
    },
  };
}
