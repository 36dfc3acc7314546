import { API_TOKENS_PER_WORKSPACE, WORKSPACE_HEADER, type WorkspaceRole } from '@adpilot/contracts';
import { apiTokens, workspaceMembers } from '@adpilot/db';
import { eq, sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { createWorkspace } from '../../test/workspace-fixtures.ts';

type Session = Awaited<ReturnType<typeof registerUser>>;

let t: TestApp;
let owner: Session;
let workspaceId: string;
const members = {} as Record<Exclude<WorkspaceRole, 'owner'>, Session>;

const inWorkspace = (session: Session) => ({ ...session.auth, [WORKSPACE_HEADER]: workspaceId });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function mint(body: object = { name: 'Desktop agent', scopes: ['read'] }, by: Session = owner) {
  const response = await t.app.inject({ method: 'POST', url: '/api/tokens', headers: inWorkspace(by), payload: body });
  return response;
}

async function tokenOf(body?: object): Promise<{ id: string; token: string }> {
  const response = await mint(body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MAX: '0' });
  owner = await registerUser(t.app);
  workspaceId = await createWorkspace(t, owner, 'Agency');
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    members[role] = await registerUser(t.app);
    await t.inspect((db) => db.insert(workspaceMembers).values({ workspaceId, userId: members[role].user.id, role }));
  }
});
afterAll(() => t.close());

describe('API tokens: made by admins and owners, shown once, stored hashed', () => {
  it('answers the token once, with the scopes it includes, and keeps only its hash', async () => {
    const response = await mint({ name: 'Desktop agent', scopes: ['write'], expiresInDays: 90 });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const created = response.json().data;
    expect(created.token).toMatch(/^adp_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ kind: 'token', name: 'Desktop agent', scopes: ['read', 'propose', 'write'] });
    expect(created.hint).toBe(created.token.slice(0, 10));
    expect(Date.parse(created.expiresAt) - t.clock.now.getTime()).toBe(90 * 86_400_000);
    expect(created.createdBy).toEqual({ id: owner.user.id, name: expect.stringMatching(/^Test User/) });

    const [row] = await t.inspect((db) => db.select().from(apiTokens).where(eq(apiTokens.id, created.id)));
    expect(row!.tokenHash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(4));

    const listed = await t.app.inject({ method: 'GET', url: '/api/tokens', headers: inWorkspace(owner) });
    const item = listed.json().data.find((token: { id: string }) => token.id === created.id);
    expect(item).toMatchObject({ name: 'Desktop agent', hint: created.hint, lastUsedAt: null });
    expect(JSON.stringify(listed.json())).not.toContain(created.token);
  });

  it('lets an admin make one; refuses an editor and a viewer naming the role', async () => {
    expect((await mint(undefined, members.admin)).statusCode).toBe(201);
    for (const role of ['editor', 'viewer'] as const) {
      const refused = await mint(undefined, members[role]);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toContain('an admin');
    }
  });

  it('refuses a bad name, no scope, an unknown scope or an expiry not offered, with the field', async () => {
    for (const body of [
      { name: '', scopes: ['read'] },
      { name: 'x'.repeat(61), scopes: ['read'] },
      { name: 'bell\u0007', scopes: ['read'] },
      { name: 'ok', scopes: [] },
      { name: 'ok', scopes: ['admin'] },
      { name: 'ok', scopes: ['read'], expiresInDays: 7 },
      { name: 'ok', scopes: ['read'], extra: true },
    ]) {
      const response = await mint(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('authenticates the REST API as its creator, in its own workspace only, and records its last use', async () => {
    const { id, token } = await tokenOf({ name: 'Reader', scopes: ['read'] });
    const rules = await t.app.inject({ method: 'GET', url: '/api/rules', headers: bearer(token) });
    expect(rules.statusCode).toBe(200);
    const inOwn = await t.app.inject({
      method: 'GET',
      url: '/api/ad-accounts',
      headers: { ...bearer(token), [WORKSPACE_HEADER]: workspaceId },
    });
    expect(inOwn.statusCode).toBe(200);
    // The creator's personal workspace is theirs, not the token's.
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/api/rules',
      headers: { ...bearer(token), [WORKSPACE_HEADER]: owner.workspaceId },
    });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().message).toBe('Workspace not found');
    const [row] = await t.inspect((db) => db.select().from(apiTokens).where(eq(apiTokens.id, id)));
    expect(row!.lastUsedAt?.getTime()).toBe(t.clock.now.getTime());
  });

  it('writes nothing through REST, and never reaches what is a person’s or the instance’s', async () => {
    const { token } = await tokenOf({ name: 'Writer', scopes: ['write'] });
    const headers = bearer(token);
    const refusals: [string, string, object?][] = [
      ['POST', '/api/rules', {}],
      ['POST', '/api/tokens', { name: 'minted by a token', scopes: ['write'] }],
      ['GET', '/api/tokens'],
      ['POST', '/api/logs/clear', {}],
      ['POST', '/api/subscription/upgrade', { planId: 'pro' }],
      ['GET', '/api/auth/me'],
      ['GET', '/api/workspaces'],
      ['POST', '/api/workspaces', { name: 'made by a token' }],
      ['DELETE', `/api/workspaces/${workspaceId}`],
      ['GET', `/api/workspaces/${workspaceId}/members`],
      ['POST', `/api/workspaces/${workspaceId}/invitations`, { email: 'x@example.com', role: 'owner' }],
      [
        'PUT',
        `/api/workspaces/${workspaceId}/agent-policy`,
        { maxBudgetChangePercent: 100, maxChangesPerDay: 1000, protectedCampaignIds: [] },
      ],
      ['GET', '/api/notifications'],
      ['GET', '/api/settings'],
      ['GET', '/api/admin/workspaces'],
      ['POST', '/api/oauth/consent', {}],
    ];
    for (const [method, url, payload] of refusals) {
      const response = await t.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().code, `${method} ${url}`).toBe('FORBIDDEN');
    }
    const rules = await t.inspect((db) =>
      db.execute(sql`select count(*)::int as n from api_tokens where name = 'minted by a token'`),
    );
    expect((rules as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });

  it('is refused at once once revoked; revoking it again is a 404', async () => {
    const { id, token } = await tokenOf({ name: 'Short-lived', scopes: ['read'] });
    expect((await t.app.inject({ method: 'GET', url: '/api/rules', headers: bearer(token) })).statusCode).toBe(200);
    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/tokens/${id}`, headers: inWorkspace(owner) });
    expect(revoked.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/rules', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/tokens/${id}`, headers: inWorkspace(owner) })).statusCode,
    ).toBe(404);
    const listed = await t.app.inject({ method: 'GET', url: '/api/tokens', headers: inWorkspace(owner) });
    expect(listed.json().data.map((token: { id: string }) => token.id)).not.toContain(id);
  });

  it('ends with its expiry, on the clock', async () => {
    const { token } = await tokenOf({ name: 'A month', scopes: ['read'], expiresInDays: 30 });
    const before = t.clock.now;
    try {
      t.clock.advance(30 * 86_400_000 - 1000);
      expect((await t.app.inject({ method: 'GET', url: '/api/rules', headers: bearer(token) })).statusCode).toBe(200);
      t.clock.advance(1000);
      expect((await t.app.inject({ method: 'GET', url: '/api/rules', headers: bearer(token) })).statusCode).toBe(401);
    } finally {
      // The members' sessions (quarter-hour access tokens) stay good for the other tests.
      t.clock.now = before;
    }
  });

  it('acts with its creator’s role now: nothing once they leave the workspace', async () => {
    const { token } = await tokenOf();
    // An admin of its own, so the other tests' members stay as they are.
    const leaving = await registerUser(t.app);
    await t.inspect((db) =>
      db.insert(workspaceMembers).values({ workspaceId, userId: leaving.user.id, role: 'admin' }),
    );
    const made = await mint({ name: 'Admin’s token', scopes: ['read'] }, leaving);
    const adminToken = made.json().data.token as string;
    expect((await t.app.inject({ method: 'GET', url: '/api/rules', headers: bearer(adminToken) })).statusCode).toBe(
      200,
    );
    // Removed the way a member is removed, which forgets the membership at once: a row deleted behind the product's
    // back would be announced to the cache asynchronously, and the next request could race the announcement.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/workspaces/${workspaceId}/members/${leaving.user.id}`,
      headers: inWorkspace(owner),
    });
    expect(removed.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/rules', headers: bearer(adminToken) })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/rules', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('is never taken from the query string, where it would be logged', async () => {
    const { token } = await tokenOf();
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/logs/stream?token=${token}&workspaceId=${workspaceId}`,
    });
    expect(response.statusCode).toBe(401);
  });

  it('lets at most the limit of live tokens be made, however many are asked for at once', async () => {
    const fresh = await createWorkspace(t, owner, 'Parallel');
    const headers = { ...owner.auth, [WORKSPACE_HEADER]: fresh };
    const answers = await Promise.all(
      Array.from({ length: API_TOKENS_PER_WORKSPACE + 5 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/api/tokens', headers, payload: { name: `t${i}`, scopes: ['read'] } }),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(API_TOKENS_PER_WORKSPACE);
    expect(codes.filter((code) => code === 409)).toHaveLength(5);
    expect(answers.find((answer) => answer.statusCode === 409)!.json()).toMatchObject({
      code: 'API_TOKEN_LIMIT_REACHED',
      params: { limit: API_TOKENS_PER_WORKSPACE },
    });
  });

  it('logs each token made and revoked, signed by the member', async () => {
    const { id } = await tokenOf({ name: 'Logged', scopes: ['propose'] });
    await t.app.inject({ method: 'DELETE', url: `/api/tokens/${id}`, headers: inWorkspace(owner) });
    const entries = (await t.inspect((db) =>
      db.execute(sql`select metadata->>'code' as code, metadata->'params' as params, actor_user_id as actor
        from activity_logs where workspace_id = ${workspaceId} and metadata->'params'->>'name' = 'Logged' order by seq`),
    )) as unknown as { rows: { code: string; params: Record<string, string>; actor: string }[] };
    expect(entries.rows).toEqual([
      { code: 'agent_token_created', params: { name: 'Logged', scope: 'propose' }, actor: owner.user.id },
      { code: 'agent_access_revoked', params: { name: 'Logged' }, actor: owner.user.id },
    ]);
  });

  it('shows a member other than an admin only their own grants, and refuses them another’s as not found', async () => {
    const { id } = await tokenOf({ name: 'Owner’s', scopes: ['read'] });
    const listed = await t.app.inject({ method: 'GET', url: '/api/tokens', headers: inWorkspace(members.viewer) });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toEqual([]);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/tokens/${id}`,
      headers: inWorkspace(members.editor),
    });
    expect(revoke.statusCode).toBe(404);
  });
});
