import { RULE_TEMPLATES, type Rule, type RuleTemplate } from '@adpilot/contracts';
import { vi } from 'vitest';

export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
}

type Reply = { status: number; body: unknown };
type Handler = (call: ApiCall) => Reply | Promise<Reply>;

export const ok = (data: unknown, status = 200): Reply => ({ status, body: { success: true, data } });
export const fail = (
  status: number,
  code: string,
  message = 'Something failed',
  errors?: { field: string; message: string }[],
): Reply => ({ status, body: { success: false, code, message, ...(errors ? { errors } : {}) } });

/**
 * Replaces `fetch` with a router keyed by "METHOD /path" (without the /api prefix), so the real api client, query
 * hooks and components run unchanged; the envelope is the server's. Unknown routes answer 404.
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
    const reply = typeof route === 'function' ? await route(call) : (route ?? fail(404, 'NOT_FOUND', 'Not found'));
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

export function buildId(): string {
  sequence += 1;
  return `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
}

/** A stored rule as GET /api/rules answers it, built from the stop-loss template (two levels of conditions). */
export function buildRule(overrides: Partial<Rule> = {}): Rule {
  const template = RULE_TEMPLATES[0] as RuleTemplate;
  return {
    ...template.rule,
    id: buildId(),
    name: 'Stop loss',
    description: 'Pause ads whose CPA is above 500',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    lastTriggered: null,
    warnings: [],
    ...overrides,
  };
}

export const TEMPLATES: readonly RuleTemplate[] = RULE_TEMPLATES;
