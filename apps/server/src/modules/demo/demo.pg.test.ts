import { DEMO_SESSIONS_PER_HOUR, DEMO_VISITOR_EMAIL, WORKSPACE_HEADER, type DemoSession } from '@adpilot/contracts';
import { refreshTokens, users } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRefuses } from '../../plugins/demo-guard.ts';
import { HeldScheduler } from '../../test/rules-sandbox.ts';
import { createSandboxTestApp, type SandboxTestApp } from '../../test/test-app.ts';

let t: SandboxTestApp;
let addresses = 0;
/** Each test visits from its own address, so one test's visits do not spend another's budget. */
const nextAddress = () => `198.51.100.${(addresses += 1)}`;

beforeAll(async () => {
  // Rule runs the demo build asks for later (none: its runs finish in line) are held, never sent to a queue.
  t = await createSandboxTestApp({}, { rules: { scheduler: new HeldScheduler() } });
  // Before the first build a visit asks to come back (the build is the queue's job, never a visitor's request).
  const early = await watchDemo();
  expect(early.statusCode).toBe(503);
  expect(early.json()).toMatchObject({ code: 'DEMO_PREPARING' });
  expect(early.headers['retry-after']).toBe('5');
  await t.modules.demo.service.rebuild();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function watchDemo(remoteAddress = nextAddress()) {
  return t.app.inject({ method: 'POST', url: '/api/demo/session', remoteAddress });
}

async function demoSession(): Promise<DemoSession & { auth: Record<string, string> }> {
  const response = await watchDemo();
  expect(response.statusCode, response.body).toBe(201);
  const data = response.json().data as DemoSession;
  return { ...data, auth: { authorization: `Bearer ${data.token}` } };
}

const read = async (auth: Record<string, string>, url: string) => {
  const response = await t.app.inject({ method: 'GET', url, headers: auth });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json().data;
};

/** The demo owner's shared workspaces: the demo workspaces that exist now. */
async function demoWorkspaces(): Promise<string[]> {
  const { ownerId } = await t.modules.demo.service['deps'].auth.demoUsers();
  const listed = await t.modules.workspaces.service.list(ownerId);
  return listed.filter((w) => !w.personal).map((w) => w.id);
}

describe('Watch Demo: a read-only demo workspace without signing up', () => {
  it('signs a visitor in as a viewer of a demo workspace whose rules have acted, with proposals and a report', async () => {
    const demo = await demoSession();
    expect(demo.user.email).toBe(DEMO_VISITOR_EMAIL);
    const [workspace] = await read(demo.auth, '/api/workspaces');
    expect(workspace).toMatchObject({ id: demo.workspaceId, role: 'viewer', personal: false });

    const accounts = await read(demo.auth, '/api/ad-accounts');
    expect(accounts.length).toBeGreaterThan(0);
    expect(accounts[0].lastSync).not.toBeNull();
    const rules = (await read(demo.auth, '/api/rules')) as { name: string; lastTriggered: string | null }[];
    expect(rules).toHaveLength(3);
    // Should no rule have acted, the log says why (what each run concluded) in the failure's message.
    const early = await read(demo.auth, '/api/logs');
    const concluded = JSON.stringify(
      early.logs.map((entry: { code: string; description: string }) => [entry.code, entry.description]),
    );
    expect(rules.filter((rule) => rule.lastTriggered !== null).length, concluded).toBeGreaterThan(0);
    const proposals = await read(demo.auth, '/api/proposals');
    expect(proposals.length).toBeGreaterThan(0);
    const overview = await read(demo.auth, '/api/reports/overview');
    expect(JSON.stringify(overview)).toMatch(/"spend":[1-9]/);
    const logs = await read(demo.auth, '/api/logs');
    expect(logs.logs.some((entry: { code: string }) => entry.code === 'rule_action_applied')).toBe(true);

    // Whatever workspace the request names, a demo session views the demo workspace.
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/api/rules',
      headers: { ...demo.auth, [WORKSPACE_HEADER]: randomUUID() },
    });
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.json().data).toHaveLength(3);
  }, 90_000);

  it('refuses every write of the route table, and the exports, with DEMO_READ_ONLY in the envelope', async () => {
    const demo = await demoSession();
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const walked: string[] = [];
    const allowed: string[] = [];
    for (const [path, operations] of Object.entries(document.paths).filter(([path]) => path.startsWith('/api/'))) {
      for (const method of Object.keys(operations).map((one) => one.toUpperCase())) {
        const route = path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
        const isWrite = !['GET', 'HEAD'].includes(method);
        if (!demoRefuses(method, route)) {
          if (isWrite) allowed.push(`${method} ${path}`);
          continue;
        }
        const url = path.replace(/\{[A-Za-z0-9_]+\}/g, randomUUID());
        const answer = await t.app.inject({
          method: method as 'POST',
          url,
          headers: { ...demo.auth, 'content-type': 'application/json' },
          ...(isWrite ? { payload: '{}' } : {}),
        });
        expect(answer.statusCode, `${method} ${path}`).toBe(403);
        expect(answer.json(), `${method} ${path}`).toMatchObject({ success: false, code: 'DEMO_READ_ONLY' });
        expect(answer.json().message).toMatch(/read-only demo/);
        walked.push(`${method} ${path}`);
      }
    }
    // Every write but ending or refreshing the session itself.
    expect(allowed.sort()).toEqual(['POST /api/auth/logout', 'POST /api/auth/refresh']);
    expect(walked.length).toBeGreaterThan(50);
    // What reaches anyone else is among them: invitations, exports, billing, webhooks and LINE, Meta writes.
    for (const key of [
      'POST /api/workspaces/{id}/invitations',
      'GET /api/logs/export',
      'GET /api/reports/export',
      'POST /api/subscription/upgrade',
      'POST /api/subscription/portal',
      'PUT /api/notifications/',
      'POST /api/rules/{id}/run',
      'POST /api/proposals/{id}/approve',
      'POST /api/tokens/',
    ]) {
      expect(walked, key).toContain(key);
    }
    // Beside the document: the MCP endpoint and the OAuth token endpoint refuse a demo bearer too.
    for (const url of ['/mcp', '/oauth/token', '/oauth/register']) {
      const answer = await t.app.inject({ method: 'POST', url, headers: demo.auth, payload: {} });
      expect(answer.statusCode, url).toBe(403);
      expect(answer.json().code, url).toBe('DEMO_READ_ONLY');
    }
    // The demo itself still reads.
    expect((await read(demo.auth, '/api/rules')).length).toBe(3);
  }, 60_000);

  it('lives an hour at most: a refresh keeps it a demo session and never moves its end', async () => {
    const demo = await demoSession();
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: demo.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    const { token } = refreshed.json().data as { token: string };
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/rules',
      headers: { authorization: `Bearer ${token}` },
      payload: {},
    });
    expect(write.json().code).toBe('DEMO_READ_ONLY');
    const rows = await t.inspect((db) =>
      db
        .select({ expiresAt: refreshTokens.expiresAt, ip: refreshTokens.ipAddress })
        .from(refreshTokens)
        .innerJoin(users, eq(users.id, refreshTokens.userId))
        .where(eq(users.email, DEMO_VISITOR_EMAIL)),
    );
    const ends = new Set(rows.map((row) => row.expiresAt.toISOString()));
    expect(ends.has(demo.expiresAt)).toBe(true);
    expect(new Date(demo.expiresAt).getTime() - t.clock.now.getTime()).toBeLessThanOrEqual(3_600_000);
    // Visitors share one user: nobody's address is kept with a demo session.
    expect(rows.every((row) => row.ip === null)).toBe(true);
    // Past its end the session is over.
    t.clock.advance(3_600_000 + 1000);
    try {
      const late = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refreshToken: refreshed.json().data.refreshToken },
      });
      expect(late.statusCode).toBe(401);
    } finally {
      t.clock.advance(-(3_600_000 + 1000));
    }
  });

  it('nobody signs up as the demo visitor', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Not the demo', email: DEMO_VISITOR_EMAIL, password: 'Sup3rSecret!' },
    });
    expect(response.statusCode).toBe(409);
  });

  it('resets itself: a rebuild makes a new demo workspace, moves the visitor and deletes the old one', async () => {
    const demo = await demoSession();
    const before = await read(demo.auth, '/api/ad-accounts');
    const rebuilt = await t.modules.demo.service.rebuild();
    expect(rebuilt).not.toBe(demo.workspaceId);
    expect(await demoWorkspaces()).toEqual([rebuilt]);
    // The session opened before the rebuild now views the new workspace, with fresh rows.
    const [workspace] = await read(demo.auth, '/api/workspaces');
    expect(workspace.id).toBe(rebuilt);
    const after = await read(demo.auth, '/api/ad-accounts');
    expect(after.map((a: { id: string }) => a.id)).not.toEqual(before.map((a: { id: string }) => a.id));
    expect((await read(demo.auth, '/api/proposals')).length).toBeGreaterThan(0);
  }, 90_000);

  it('counts visits per address before making anything: parallel visits past the limit get 429', async () => {
    const before = await demoWorkspaces();
    const address = nextAddress();
    const answers = await Promise.all(Array.from({ length: DEMO_SESSIONS_PER_HOUR + 5 }, () => watchDemo(address)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(DEMO_SESSIONS_PER_HOUR);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(5);
    for (const answer of refused) {
      expect(answer.json().code).toBe('RATE_LIMITED');
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    // However many visit, there is one demo workspace: a visit makes a session, never a copy of the demo.
    expect(await demoWorkspaces()).toEqual(before);
    // Another address still gets in.
    expect((await watchDemo()).statusCode).toBe(201);
  });
});
