import type { AdAccount } from '@adpilot/contracts';
import { vi } from 'vitest';

export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
}

type Reply = { status: number; body: unknown };
type Handler = (call: ApiCall) => Reply | Promise<Reply>;

export const ok = (data: unknown): Reply => ({ status: 200, body: { success: true, data } });
export const fail = (status: number, message = 'Something failed'): Reply => ({
  status,
  body: { success: false, code: status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST', message },
});

/**
 * Replaces `fetch` with a small router keyed by "METHOD /path" (without the /api prefix), so the real
 * api client, query hooks and components run unchanged. Unknown routes answer 404.
 */
export function fakeApi(routes: Record<string, Handler | Reply> = {}) {
  const table = new Map(Object.entries(routes));
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const path = url.pathname.replace(/^\/api/, '');
    const call: ApiCall = { method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const route = table.get(`${method} ${path}`);
    const reply = typeof route === 'function' ? await route(call) : (route ?? fail(404, 'Not found'));
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

let sequence = 0;

export function buildAdAccount(overrides: Partial<AdAccount> = {}): AdAccount {
  sequence += 1;
  const n = String(sequence).padStart(3, '0');
  return {
    id: `00000000-0000-4000-8000-000000000${n}`,
    facebook_account_id: `act_1000${n}`,
    facebook_account_name: `Account ${n}`,
    account_status: 'active',
    meta_account_status: 1,
    status_reason: null,
    currency: 'USD',
    timezone: 'America/Los_Angeles',
    last_sync: null,
    sync_status: 'idle',
    last_sync_error: null,
    needs_reauth: false,
    is_sandbox: false,
    missing_scopes: [],
    read_only: false,
    auto_sync: true,
    ads_manager_url: `https://adsmanager.facebook.com/adsmanager/manage/campaigns?act=1000${n}`,
    created_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}
