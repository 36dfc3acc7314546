import { ROLE_RANK, WORKSPACE_HEADER, type WorkspaceRole } from '@adpilot/contracts';
import { workspaceMembers } from '@adpilot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, type Operation } from '../../test/fuzz/openapi.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { WORKSPACE_PREFIXES } from '../../plugins/docs-answers.ts';

/**
 * The role matrix (ADR 0070): every operation of the API document acting on the current workspace, asked by each
 * role of that workspace and by someone outside it. Driven from the document, so a route added later is checked
 * without anyone listing it; a route outside the workspace prefixes must be named below as a person's own.
 */

/** Operations that belong to the person or the instance, not to a workspace: the header does not apply. */
const NOT_WORKSPACE_PREFIXES = [
  '/api/auth',
  '/api/account',
  '/api/workspaces',
  '/api/invitations',
  '/api/mail',
  '/api/proposal-links',
  '/api/notifications',
  '/api/email-verification',
  '/api/admin',
  '/api/settings',
  '/api/diagnostics',
  '/api/billing',
  '/api/health',
  '/api/metrics',
  '/api/ready',
  '/api/oauth',
  '/api/demo',
];

/** The routes whose role is not the default (viewer reads, editor writes). */
const DECLARED: Record<string, WorkspaceRole> = {
  'GET /api/ad-accounts/facebook/auth-url': 'editor',
  'POST /api/ad-accounts/system-user': 'admin',
  'POST /api/subscription/upgrade': 'owner',
  'POST /api/subscription/portal': 'owner',
  'POST /api/subscription/cancel': 'owner',
  'GET /api/subscription/receipts': 'owner',
  'GET /api/subscription/receipts/{id}.pdf': 'owner',
  'POST /api/rules/{id}/preview': 'viewer',
  'POST /api/rules/{id}/backtest': 'viewer',
  'POST /api/tokens/': 'admin',
  'DELETE /api/tokens/{id}': 'viewer',
  'DELETE /api/logs/': 'owner',
  'POST /api/logs/clear': 'owner',
};

const ROLES: WorkspaceRole[] = ['viewer', 'editor', 'admin', 'owner'];
/** How a refusal names the role needed. */
const WORDS: Record<WorkspaceRole, string> = {
  viewer: 'a viewer',
  editor: 'an editor',
  admin: 'an admin',
  owner: 'an owner',
};
const SOME_ID = '00000000-0000-4000-8000-000000000001';

const needed = (operation: Operation): WorkspaceRole =>
  DECLARED[`${operation.method} ${operation.path}`] ?? (operation.method === 'GET' ? 'viewer' : 'editor');

let t: TestApp;
let operations: Operation[];
let workspaceId: string;
const sessions = {} as Record<WorkspaceRole | 'outsider', Record<string, string>>;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MAX: '0' });
  const owner = await registerUser(t.app);
  workspaceId = owner.workspaceId;
  sessions.owner = owner.auth;
  for (const role of ['viewer', 'editor', 'admin'] as const) {
    const member = await registerUser(t.app);
    await t.inspect((db) => db.insert(workspaceMembers).values({ workspaceId, userId: member.user.id, role }));
    sessions[role] = member.auth;
  }
  sessions.outsider = (await registerUser(t.app)).auth;
  operations = operationsOf(t.app.swagger() as Parameters<typeof operationsOf>[0]).filter((op) =>
    op.path.startsWith('/api/'),
  );
});
afterAll(() => t.close());

function request(operation: Operation, auth: Record<string, string>) {
  const path = operation.pathParams.reduce((url, name) => url.replace(`{${name}}`, SOME_ID), operation.path);
  return t.app.inject({
    method: operation.method as 'GET',
    url: path,
    headers: { ...auth, [WORKSPACE_HEADER]: workspaceId },
    ...(operation.method === 'GET' || operation.method === 'DELETE' ? {} : { payload: {} }),
  });
}

const isWorkspaceRoute = (operation: Operation) => WORKSPACE_PREFIXES.some((p) => `${operation.path}/`.startsWith(p));

describe('roles on every route of a workspace', () => {
  it('knows where every operation of the document belongs', () => {
    const unknown = operations.filter(
      (op) => !isWorkspaceRoute(op) && !NOT_WORKSPACE_PREFIXES.some((p) => op.path.startsWith(p)),
    );
    expect(unknown.map((op) => `${op.method} ${op.path}`)).toEqual([]);
    // The matrix below covers a real number of routes, not an empty list.
    expect(operations.filter(isWorkspaceRoute).length).toBeGreaterThan(35);
    for (const key of Object.keys(DECLARED)) {
      expect(
        operations.some((op) => `${op.method} ${op.path}` === key),
        key,
      ).toBe(true);
    }
  });

  it('refuses each role below the route’s role with 403 FORBIDDEN naming it, and lets the others through', async () => {
    const wrong: string[] = [];
    let refusals = 0;
    for (const operation of operations.filter((op) => isWorkspaceRoute(op) && !op.streams)) {
      const role = needed(operation);
      for (const asked of ROLES) {
        const response = await request(operation, sessions[asked]);
        const body = String(response.headers['content-type']).includes('json') ? response.json() : {};
        const refused = response.statusCode === 403 && body.code === 'FORBIDDEN';
        const shouldRefuse = ROLE_RANK[asked] < ROLE_RANK[role];
        if (refused) refusals += 1;
        if (refused !== shouldRefuse || (refused && !String(body.message).includes(WORDS[role])))
          wrong.push(`${asked} ${operation.method} ${operation.path} → ${response.statusCode} ${body.code ?? ''}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refusals).toBeGreaterThan(20);
  });

  it('documents the 403 of every route a viewer may not use, and the 404 of every workspace route', () => {
    const document = t.app.swagger() as unknown as { paths: Record<string, Record<string, { responses: object }>> };
    const missing: string[] = [];
    for (const operation of operations.filter(isWorkspaceRoute)) {
      const answers = Object.keys(document.paths[operation.path]?.[operation.method.toLowerCase()]?.responses ?? {});
      if (!answers.includes('404')) missing.push(`404 ${operation.method} ${operation.path}`);
      if (needed(operation) !== 'viewer' && !answers.includes('403'))
        missing.push(`403 ${operation.method} ${operation.path}`);
    }
    expect(missing).toEqual([]);
  });

  it('answers 404 for a workspace the user is not a member of, on every route, streams included', async () => {
    const wrong: string[] = [];
    for (const operation of operations.filter(isWorkspaceRoute)) {
      const response = await request(operation, sessions.outsider);
      const body = response.json();
      if (response.statusCode !== 404 || body.code !== 'NOT_FOUND' || body.message !== 'Workspace not found')
        wrong.push(`${operation.method} ${operation.path} → ${response.statusCode} ${body.code ?? ''}`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a malformed workspace id as not found, and answers the personal workspace without a header', async () => {
    const malformed = await t.app.inject({
      method: 'GET',
      url: '/api/rules',
      headers: { ...sessions.viewer, [WORKSPACE_HEADER]: "x' or 1=1" },
    });
    expect(malformed.statusCode).toBe(404);
    const own = await t.app.inject({ method: 'POST', url: '/api/rules', headers: sessions.viewer, payload: {} });
    // Without the header the viewer acts in their own personal workspace, as its owner: past the role check.
    expect(own.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
