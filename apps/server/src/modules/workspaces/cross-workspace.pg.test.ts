import { WORKSPACE_HEADER } from '@adpilot/contracts';
import { adAccounts, apiTokens, automationRules, reportSchedules, workspaceMembers } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, type Operation } from '../../test/fuzz/openapi.ts';
import { buildRule } from '../../test/rule-factories.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

/**
 * The cross-workspace matrix (ADR 0070): a member of two workspaces, acting in one, names the other's ids on every
 * id route of the document. Membership of both means row-level security's membership test passes: only the unit of
 * work's workspace and the explicit filters stand between them, and every route must answer 404 and change nothing.
 */
let t: TestApp;
let operations: Operation[];
const ids: Record<string, string> = {};
let member: Awaited<ReturnType<typeof registerUser>>;
let other: Awaited<ReturnType<typeof registerUser>>;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MAX: '0' });
  other = await registerUser(t.app);
  member = await registerUser(t.app);
  await t.inspect((db) =>
    db.insert(workspaceMembers).values({ workspaceId: other.workspaceId, userId: member.user.id, role: 'owner' }),
  );
  const inOther = { ...member.auth, [WORKSPACE_HEADER]: other.workspaceId };
  const [account] = await t.inspect((db) =>
    db
      .insert(adAccounts)
      .values({
        workspaceId: other.workspaceId,
        facebookAccountId: '9001',
        facebookAccountName: 'Other shop',
        metaAccountStatus: 1,
        currency: 'THB',
        timezone: 'Asia/Bangkok',
        accessTokenEnc: t.secretBox.encrypt('token'),
      })
      .returning({ id: adAccounts.id }),
  );
  ids.account = account!.id;
  const rule = await t.app.inject({ method: 'POST', url: '/api/rules', headers: inOther, payload: buildRule() });
  expect(rule.statusCode).toBe(201);
  ids.rule = rule.json().data.id;
  ids.ruleName = rule.json().data.name;
  const note = await t.app.inject({
    method: 'POST',
    url: '/api/logs',
    headers: inOther,
    payload: { description: 'the other workspace’s note' },
  });
  ids.log = note.json().data._id;
  const schedule = await t.app.inject({
    method: 'POST',
    url: '/api/reports/schedules',
    headers: inOther,
    payload: { frequency: 'weekly', language: 'en', recipients: ['client@example.com'] },
  });
  expect(schedule.statusCode).toBe(201);
  ids.schedule = schedule.json().data.id;
  const token = await t.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: inOther,
    payload: { name: 'Other’s agent', scopes: ['read'] },
  });
  expect(token.statusCode).toBe(201);
  ids.token = token.json().data.id;
  operations = operationsOf(t.app.swagger() as Parameters<typeof operationsOf>[0]).filter(
    (op) => op.pathParams.length > 0 && /^\/api\/(rules|ad-accounts|logs|reports|tokens)\//.test(op.path),
  );
});
afterAll(() => t.close());

/** Bodies that pass validation, so the answer is the route's own (a PATCH with nothing in it is a 400). */
const BODIES: Record<string, object> = {
  'PATCH /api/rules/{id}': { name: 'Taken over' },
  'PATCH /api/ad-accounts/{id}': { facebook_account_name: 'Taken over' },
  'PATCH /api/reports/schedules/{id}': { recipients: ['taken-over@example.com'] },
  'PUT /api/ad-accounts/{id}/monthly-budgets': { amount: 1 },
};

/** Queries a route requires, so the answer is the route's own. */
const QUERIES: Record<string, string> = {
  'GET /api/rules/{id}/impact': '?from=2026-11-01&to=2026-11-26',
};

/** The other workspace's id for a path parameter of this operation's subtree. */
function idFor(operation: Operation, param: string): string {
  if (param === 'actionId') return '00000000-0000-4000-8000-000000000099';
  if (operation.path.startsWith('/api/rules/')) return ids.rule!;
  if (operation.path.startsWith('/api/ad-accounts/')) return ids.account!;
  if (operation.path.startsWith('/api/logs/')) return ids.log!;
  if (operation.path.startsWith('/api/reports/schedules/')) return ids.schedule!;
  if (operation.path.startsWith('/api/tokens/')) return ids.token!;
  throw new Error(`no id for ${param} of ${operation.path}`);
}

describe('another workspace’s ids, asked by a member of both while acting in their own', () => {
  it('answer 404 on every id route and change nothing', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const operation of operations.filter((op) => !op.streams)) {
      const url =
        operation.pathParams.reduce((path, name) => path.replace(`{${name}}`, idFor(operation, name)), operation.path) +
        (QUERIES[`${operation.method} ${operation.path}`] ?? '');
      const response = await t.app.inject({
        method: operation.method as 'GET',
        url,
        headers: { ...member.auth, [WORKSPACE_HEADER]: member.workspaceId },
        ...(operation.method === 'GET' || operation.method === 'DELETE'
          ? {}
          : { payload: BODIES[`${operation.method} ${operation.path}`] ?? {} }),
      });
      checked += 1;
      if (response.statusCode !== 404) wrong.push(`${operation.method} ${url} → ${response.statusCode}`);
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(10);
    const [rule] = await t.inspect((db) => db.select().from(automationRules).where(eq(automationRules.id, ids.rule!)));
    expect(rule).toMatchObject({ workspaceId: other.workspaceId, name: ids.ruleName });
    const [account] = await t.inspect((db) => db.select().from(adAccounts).where(eq(adAccounts.id, ids.account!)));
    expect(account).toMatchObject({ workspaceId: other.workspaceId, facebookAccountName: 'Other shop' });
    const [schedule] = await t.inspect((db) =>
      db.select().from(reportSchedules).where(eq(reportSchedules.id, ids.schedule!)),
    );
    expect(schedule).toMatchObject({ workspaceId: other.workspaceId, recipients: ['client@example.com'] });
    const [token] = await t.inspect((db) => db.select().from(apiTokens).where(eq(apiTokens.id, ids.token!)));
    expect(token).toMatchObject({ workspaceId: other.workspaceId, revokedAt: null });
  });
});
