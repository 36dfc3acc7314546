import { WORKSPACE_HEADER } from '@adpilot/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTIONAL_AUTH_OPERATIONS, PUBLIC_OPERATIONS, WORKSPACE_PREFIXES } from '../../plugins/docs-answers.ts';
import { operationsOf, type Operation } from '../../test/fuzz/openapi.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

/**
 * What an API token may do on the REST API (ADR 0151), over every operation of the API document, so a route added
 * later is held without anyone listing it: a workspace's reads with the read scope; the read-only POSTs declared for
 * agents; nothing else. Every other write is refused, and so is everything that belongs to a person or the instance
 * (their account, workspaces, members, invitations, billing, notifications, settings, the consent to OAuth), even for
 * a token with every scope made by the workspace's owner who is also the instance's administrator.
 */

/** POSTs that only read, declared for agents (`config.agents`). */
const AGENT_READS = new Set([
  'POST /api/rules/preview',
  'POST /api/rules/{id}/preview',
  'POST /api/rules/{id}/backtest',
]);
/** Workspace reads that are no agent's (`config.agents: 'never'`). */
const AGENT_NEVER = new Set([
  'GET /api/tokens/',
  'GET /api/ad-accounts/facebook/auth-url',
  'GET /api/subscription/receipts',
  'GET /api/subscription/receipts/{id}.pdf',
]);

const SOME_ID = '00000000-0000-4000-8000-000000000001';

let t: TestApp;
let operations: Operation[];
let headers: Record<string, string>;
let counts: () => Promise<Record<string, number>>;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MAX: '0' });
  // The first user is the instance's administrator: their token still reaches nothing of the instance.
  const owner = await registerUser(t.app);
  const minted = await t.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: owner.auth,
    payload: { name: 'Everything', scopes: ['write'] },
  });
  headers = { authorization: `Bearer ${minted.json().data.token}`, [WORKSPACE_HEADER]: owner.workspaceId };
  operations = operationsOf(t.app.swagger() as Parameters<typeof operationsOf>[0]).filter((op) =>
    op.path.startsWith('/api/'),
  );
  counts = async () => {
    const result = (await t.inspect((db) =>
      db.execute(sql`select
        (select count(*)::int from api_tokens) as tokens,
        (select count(*)::int from workspaces) as workspaces,
        (select count(*)::int from workspace_members) as members,
        (select count(*)::int from workspace_invitations) as invitations,
        (select count(*)::int from automation_rules) as rules,
        (select count(*)::int from subscriptions where plan_id <> 'free') as paid`),
    )) as unknown as { rows: Record<string, number>[] };
    return result.rows[0]!;
  };
});
afterAll(() => t.close());

const key = (op: Operation) => `${op.method} ${op.path}`;
const isWorkspaceRoute = (op: Operation) => WORKSPACE_PREFIXES.some((prefix) => `${op.path}/`.startsWith(prefix));

function send(op: Operation) {
  const url = op.pathParams.reduce((path, name) => path.replace(`{${name}}`, SOME_ID), op.path);
  return t.app.inject({
    method: op.method as 'GET',
    url,
    headers,
    ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: {} }),
  });
}

describe('an API token on every route of the API document', () => {
  it('declares only routes that exist', () => {
    for (const name of [...AGENT_READS, ...AGENT_NEVER]) expect(operations.map(key), name).toContain(name);
  });

  it('reads the workspace, writes nothing, and reaches nothing of a person or the instance', async () => {
    const before = await counts();
    const wrong: string[] = [];
    let allowed = 0;
    let refused = 0;
    // Public operations answer anyone; logout with a token that is no session's ends nothing.
    const open = (o: Operation) => PUBLIC_OPERATIONS.has(key(o)) || OPTIONAL_AUTH_OPERATIONS.has(key(o));
    for (const op of operations.filter((o) => !o.streams && !open(o))) {
      const response = await send(op);
      const status = response.statusCode;
      const mayUse =
        isWorkspaceRoute(op) && (op.method === 'GET' ? !AGENT_NEVER.has(key(op)) : AGENT_READS.has(key(op)));
      if (mayUse) {
        allowed += 1;
        if (status === 401 || status === 403) wrong.push(`${key(op)} refused (${status}): ${response.body}`);
      } else {
        refused += 1;
        // The metrics' guard takes only its scraper's token or an administrator's session: a 401 there.
        if (status !== 403 && !(status === 401 && op.path === '/api/metrics'))
          wrong.push(`${key(op)} → ${status}: ${response.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(allowed).toBeGreaterThan(15);
    expect(refused).toBeGreaterThan(40);
    expect(await counts()).toEqual(before);
  });
});
