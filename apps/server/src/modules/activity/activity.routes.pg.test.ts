import { activityLogs } from '@adpilot/db';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLogRetention } from './activity.jobs.ts';
import { buildRule } from '../../test/rule-factories.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { activityLogListResponse, seedLogs } from '../../test/activity-fixtures.ts';
import { createWorkspace, joinAs, putOnPlan } from '../../test/workspace-fixtures.ts';
import { WORKSPACE_HEADER } from '@adpilot/contracts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MAX: '0' });
});
afterAll(async () => {
  await t.close();
});

type Session = Awaited<ReturnType<typeof registerUser>>;

function call(session: Session, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url: `/api/logs${url}`,
    headers: session.auth,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

describe('GET /api/logs', () => {
  it('answers data.logs newest first with the spec fields and a pagination carrying the true total', async () => {
    const session = await registerUser(t.app);
    await seedLogs(t, session.workspaceId, 120);
    const response = await call(session, 'GET', '?limit=50');
    expect(response.statusCode).toBe(200);
    const body = activityLogListResponse.parse(response.json());
    expect(body.data.logs).toHaveLength(50);
    expect(body.data.pagination).toMatchObject({ page: 1, limit: 50, total: 120, totalPages: 3 });
    const seqs = body.data.logs.map((log) => log.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    const [first] = body.data.logs;
    expect(first).toMatchObject({
      _id: expect.any(String),
      level: expect.any(String),
      description: expect.any(String),
    });
    expect(new Date(first!.createdAt).toISOString()).toBe(first!.createdAt);
    const last = await call(session, 'GET', '?limit=50&page=3');
    expect(last.json().data.logs).toHaveLength(20);
    // A page past the end is empty but still carries the true total and the log's position.
    const beyond = (await call(session, 'GET', '?limit=50&page=4')).json().data;
    expect(beyond.logs).toEqual([]);
    expect(beyond.pagination).toMatchObject({ page: 4, total: 120, totalPages: 3, asOf: body.data.pagination.asOf });
    const empty = (await call(await registerUser(t.app), 'GET', '')).json().data;
    expect(empty).toEqual({ logs: [], pagination: { page: 1, limit: 50, total: 0, totalPages: 0, asOf: 0 } });
    // Defaults: page 1, 50 a page (spec §9); the limit tops out at 200.
    expect((await call(session, 'GET', '')).json().data.pagination).toMatchObject({ page: 1, limit: 50 });
    expect((await call(session, 'GET', '?limit=200')).statusCode).toBe(200);
    expect((await call(session, 'GET', '?limit=201')).statusCode).toBe(400);
    expect((await call(session, 'GET', '?page=0')).statusCode).toBe(400);
  });

  it('combines level, type, rule, ad account, date range and search', async () => {
    const session = await registerUser(t.app);
    const ruleId = randomUUID();
    const accountId = randomUUID();
    const days = ['2026-03-01T10:00:00Z', '2026-03-02T10:00:00Z', '2026-03-03T10:00:00Z'];
    await seedLogs(t, session.workspaceId, 0, [
      {
        level: 'error',
        category: 'rule_action',
        description: 'Budget 100% raised',
        ruleId,
        adAccountId: accountId,
        createdAt: days[1],
      },
      {
        level: 'error',
        category: 'rule_action',
        description: 'Budget lowered',
        ruleId,
        adAccountId: accountId,
        createdAt: days[1],
      },
      {
        level: 'success',
        category: 'rule_action',
        description: 'Budget 100% raised',
        ruleId,
        adAccountId: accountId,
        createdAt: days[1],
      },
      {
        level: 'error',
        category: 'sync',
        description: 'Budget 100% raised',
        adAccountId: accountId,
        createdAt: days[1],
      },
      {
        level: 'error',
        category: 'rule_action',
        description: 'Budget 100% raised',
        ruleId: randomUUID(),
        adAccountId: accountId,
        createdAt: days[1],
      },
      {
        level: 'error',
        category: 'rule_action',
        description: 'Budget 100% raised',
        ruleId,
        adAccountId: randomUUID(),
        createdAt: days[1],
      },
      {
        level: 'error',
        category: 'rule_action',
        description: 'Budget 100% raised',
        ruleId,
        adAccountId: accountId,
        createdAt: days[0],
      },
      {
        level: 'error',
        category: 'rule_action',
        description: 'Budget 100% raised',
        ruleId,
        adAccountId: accountId,
        createdAt: days[2],
      },
      {
        level: 'error',
        category: 'rule_action',
        description: 'Budget 1000 raised',
        ruleId,
        adAccountId: accountId,
        createdAt: days[1],
      },
    ]);
    const query = `?level=error&type=rule_action&ruleId=${ruleId}&adAccountId=${accountId}&from=2026-03-02&to=2026-03-02&search=${encodeURIComponent('100%')}`;
    const all = (await call(session, 'GET', query)).json().data;
    expect(all.pagination.total).toBe(1);
    expect(all.logs[0]).toMatchObject({ level: 'error', type: 'rule_action', ruleId, adAccountId: accountId });
    expect(all.logs[0].description).toBe('Budget 100% raised');
    // Each filter alone lets more through: they combine.
    expect((await call(session, 'GET', '?level=error')).json().data.pagination.total).toBe(8);
    expect((await call(session, 'GET', `?ruleId=${ruleId}`)).json().data.pagination.total).toBe(7);
    expect((await call(session, 'GET', '?level=error&level=success')).json().data.pagination.total).toBe(9);
    // Instants with an offset, and the range in order.
    expect(
      (await call(session, 'GET', `?from=${encodeURIComponent('2026-03-02T09:00:00+00:00')}&to=2026-03-02`)).json().data
        .pagination.total,
    ).toBe(7);
    expect((await call(session, 'GET', '?from=2026-03-03&to=2026-03-01')).statusCode).toBe(400);
    expect((await call(session, 'GET', '?level=fatal')).statusCode).toBe(400);
    expect((await call(session, 'GET', '?type=nope')).statusCode).toBe(400);
  });

  it('keeps pages stable while new entries are written, through asOf', async () => {
    const session = await registerUser(t.app);
    await seedLogs(t, session.workspaceId, 30);
    const first = (await call(session, 'GET', '?limit=10')).json().data;
    // Entries arrive between the first page and the next ones, in parallel.
    await Promise.all(Array.from({ length: 7 }, (_, i) => call(session, 'POST', '', { description: `arrived ${i}` })));
    const asOf = first.pagination.asOf;
    const second = (await call(session, 'GET', `?limit=10&page=2&asOf=${asOf}`)).json().data;
    const third = (await call(session, 'GET', `?limit=10&page=3&asOf=${asOf}`)).json().data;
    const ids = [...first.logs, ...second.logs, ...third.logs].map((log: { _id: string }) => log._id);
    expect(new Set(ids).size).toBe(30);
    expect(second.pagination.total).toBe(30);
    expect((await call(session, 'GET', '?limit=10')).json().data.pagination.total).toBe(37);
  });
});

describe('single entries, notes and deletes', () => {
  it('GET /:id answers the entry; another user’s id and an unknown id are 404, a malformed one 400', async () => {
    const owner = await registerUser(t.app);
    const intruder = await registerUser(t.app);
    const created = (await call(owner, 'POST', '', { description: 'mine' })).json().data;
    expect((await call(owner, 'GET', `/${created._id}`)).json().data).toEqual(created);
    const foreign = await call(intruder, 'GET', `/${created._id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect((await call(owner, 'GET', `/${randomUUID()}`)).statusCode).toBe(404);
    expect((await call(owner, 'GET', '/not-a-uuid')).statusCode).toBe(400);
    expect((await call(intruder, 'GET', '')).json().data.pagination.total).toBe(0);
    expect((await call(intruder, 'DELETE', '', { ids: [created._id] })).json().data.deletedCount).toBe(0);
    expect((await call(intruder, 'POST', '/clear', {})).json().data.deletedCount).toBe(0);
    expect((await call(owner, 'GET', `/${created._id}`)).statusCode).toBe(200);
    expect((await call(owner, 'GET', '')).json().data.pagination.total).toBe(1);
  });

  it('POST / keeps a note as text: a <script> comes back exactly, as JSON data', async () => {
    const session = await registerUser(t.app);
    const text = '<script>alert("x")</script> & <b>bold</b>';
    const created = await call(session, 'POST', '', { description: text, level: 'warning' });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ description: text, level: 'warning', type: 'note', code: 'note' });
    const listed = await call(session, 'GET', '');
    expect(listed.headers['content-type']).toMatch(/^application\/json/);
    expect(listed.json().data.logs[0].description).toBe(text);
    const csv = await call(session, 'GET', '/export?format=csv');
    expect(csv.body).toContain('<script>alert(""x"")</script>');
    expect((await call(session, 'POST', '', { description: '' })).statusCode).toBe(400);
    expect((await call(session, 'POST', '', { description: 'x'.repeat(2001) })).statusCode).toBe(400);
    expect((await call(session, 'POST', '', { description: 'a\u0000b' })).statusCode).toBe(400);
    expect((await call(session, 'POST', '', { description: 'ok', type: 'rule_action' })).statusCode).toBe(400);
    expect((await call(session, 'POST', '', { description: 'ok', level: 'fatal' })).statusCode).toBe(400);
  });

  it('DELETE / removes the given ids and answers how many; clear removes what matches and answers deletedCount', async () => {
    const session = await registerUser(t.app);
    await seedLogs(t, session.workspaceId, 0, [
      ...Array.from({ length: 6 }, () => ({ level: 'error' as const, category: 'sync' })),
      ...Array.from({ length: 4 }, () => ({ level: 'info' as const, category: 'sync' })),
      ...Array.from({ length: 3 }, () => ({ level: 'error' as const, category: 'rule_run' })),
    ]);
    const logs = (await call(session, 'GET', '?limit=200')).json().data.logs as { _id: string }[];
    const two = logs.slice(0, 2).map((log) => log._id);
    const deleted = await call(session, 'DELETE', '', { ids: [...two, randomUUID()] });
    expect(deleted.json()).toEqual({ success: true, data: { deletedCount: 2 } });
    expect((await call(session, 'GET', `/${two[0]}`)).statusCode).toBe(404);
    expect((await call(session, 'DELETE', '', { ids: [] })).statusCode).toBe(400);
    expect((await call(session, 'DELETE', '', { ids: ['x'] })).statusCode).toBe(400);

    const before = (await call(session, 'GET', '?level=error&type=sync')).json().data.pagination.total;
    const cleared = await call(session, 'POST', '/clear', { level: 'error', type: 'sync' });
    expect(cleared.json()).toEqual({ success: true, data: { deletedCount: before } });
    // Each deletion left its tombstone (ADR 0094), which no clearing takes.
    const kept = async () => (await call(session, 'GET', '?type=audit')).json().data.pagination.total;
    expect(await kept()).toBe(2);
    expect((await call(session, 'GET', '')).json().data.pagination.total).toBe(11 - before + 2);
    const rest = await call(session, 'POST', '/clear');
    expect(rest.json().data.deletedCount).toBe(11 - before);
    expect((await call(session, 'GET', '')).json().data.pagination.total).toBe(3);
    expect(await kept()).toBe(3);
  });

  it('keeps what records changes: only the owner clears, only the clearable kinds, and a tombstone says who', async () => {
    const owner = await registerUser(t.app, { name: 'Olive Owner' });
    const workspaceId = await createWorkspace(t, owner, 'Audit');
    await putOnPlan(t, workspaceId, 'pro');
    const editor = await joinAs(t, owner, workspaceId, 'editor');
    const admin = await joinAs(t, owner, workspaceId, 'admin');
    await seedLogs(t, workspaceId, 0, [
      { level: 'success', category: 'rule_action' },
      { level: 'info', category: 'rule_change' },
      { level: 'info', category: 'billing' },
      { level: 'info', category: 'workspace' },
      { level: 'info', category: 'agent' },
      { level: 'warning', category: 'sync', metadata: { code: 'external_change', params: {} } },
      { level: 'info', category: 'note' },
      { level: 'info', category: 'rule_run' },
    ]);
    const inWorkspace = (session: Session, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/logs${url}`,
        headers: { ...session.auth, [WORKSPACE_HEADER]: workspaceId },
        ...(payload === undefined ? {} : { payload }),
      });
    const all = async () =>
      (await inWorkspace(owner, 'GET', '?limit=200')).json().data.logs as { _id: string; type: string }[];
    const ids = (await all()).map((log) => log._id);
    for (const member of [editor, admin]) {
      for (const [method, url, payload] of [
        ['DELETE', '', { ids }],
        ['POST', '/clear', {}],
      ] as const) {
        const refused = await inWorkspace(member, method, url, payload);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ code: 'FORBIDDEN' });
      }
    }
    expect(await all()).toHaveLength(ids.length);

    const deleted = await inWorkspace(owner, 'DELETE', '', { ids });
    expect(deleted.json().data).toEqual({ deletedCount: 2 });
    const left = await all();
    expect(left).toHaveLength(ids.length - 2 + 1);
    const types = new Set(left.map((log) => log.type));
    for (const kept of ['agent', 'billing', 'rule_action', 'rule_change', 'sync', 'workspace', 'audit'])
      expect(types.has(kept), kept).toBe(true);
    expect(types.has('note') || types.has('rule_run')).toBe(false);
    const [tombstone] = left.filter((log) => log.type === 'audit') as unknown as {
      _id: string;
      code: string;
      params: Record<string, unknown>;
      actor: { name: string } | null;
    }[];
    expect(tombstone).toMatchObject({ code: 'activity_cleared', params: { count: 2 } });
    expect(JSON.stringify(tombstone)).toContain('Olive Owner');

    // The tombstone itself cannot be cleared, by id or by filter.
    expect((await inWorkspace(owner, 'DELETE', '', { ids: [tombstone!._id] })).json().data.deletedCount).toBe(0);
    expect((await inWorkspace(owner, 'POST', '/clear', { type: 'audit' })).json().data.deletedCount).toBe(0);
    expect((await inWorkspace(owner, 'POST', '/clear', {})).json().data.deletedCount).toBe(0);
    expect(await all()).toHaveLength(left.length);
  });

  it('a cleared log never reuses a sequence number', async () => {
    const session = await registerUser(t.app);
    const a = (await call(session, 'POST', '', { description: 'a' })).json().data;
    await call(session, 'POST', '/clear', {});
    const b = (await call(session, 'POST', '', { description: 'b' })).json().data;
    expect(b.seq).toBeGreaterThan(a.seq);
  });
});

describe('GET /api/logs/stats', () => {
  it('counts per level and type, and rule actions per day in the asked time zone, with the same filters', async () => {
    const session = await registerUser(t.app);
    await seedLogs(t, session.workspaceId, 0, [
      { level: 'success', category: 'rule_action', createdAt: '2026-04-01T16:30:00Z' },
      { level: 'success', category: 'rule_action', createdAt: '2026-04-01T18:30:00Z' },
      { level: 'error', category: 'rule_action', createdAt: '2026-04-02T02:00:00Z' },
      { level: 'info', category: 'sync', createdAt: '2026-04-02T02:00:00Z' },
      { level: 'warning', category: 'rule_run', createdAt: '2026-04-02T03:00:00Z' },
      // A day with entries but no rule action is not a day of actions.
      { level: 'info', category: 'sync', createdAt: '2026-04-05T02:00:00Z' },
    ]);
    const utc = (await call(session, 'GET', '/stats')).json().data;
    expect(utc).toEqual({
      total: 6,
      byLevel: { error: 1, warning: 1, info: 2, success: 2 },
      byType: { rule_action: 3, sync: 2, rule_run: 1 },
      actionsPerDay: [
        { date: '2026-04-01', count: 2 },
        { date: '2026-04-02', count: 1 },
      ],
    });
    // Bangkok is 7 hours ahead: 18:30Z on the 1st is already the 2nd there.
    const bangkok = (await call(session, 'GET', '/stats?tz=Asia/Bangkok')).json().data;
    expect(bangkok.actionsPerDay).toEqual([
      { date: '2026-04-01', count: 1 },
      { date: '2026-04-02', count: 2 },
    ]);
    const filtered = (await call(session, 'GET', '/stats?level=success')).json().data;
    expect(filtered.total).toBe(2);
    expect((await call(session, 'GET', '/stats?tz=Mars/Olympus')).statusCode).toBe(400);
  });
});

describe('GET /api/logs/export', () => {
  it('answers CSV (with a header, formulas defused) and JSON files with the filters applied', async () => {
    const session = await registerUser(t.app);
    await seedLogs(t, session.workspaceId, 0, [
      { level: 'error', category: 'sync', description: '=HYPERLINK("http://evil")' },
      { level: 'info', category: 'sync', description: 'fine, with a comma' },
      { level: 'info', category: 'note', description: 'other' },
    ]);
    const csv = await call(session, 'GET', '/export?type=sync');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="adpilot-activity-.*\.csv"/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,createdAt,level,type,code,description,adAccountId,ruleId');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"fine, with a comma"');
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    const json = await call(session, 'GET', '/export?format=json&level=error');
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    const entries = JSON.parse(json.body);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ level: 'error', description: '=HYPERLINK("http://evil")' });
    expect((await call(session, 'GET', '/export?format=xml')).statusCode).toBe(400);
  });

  it('exports an empty log as a header only and an empty array', async () => {
    const session = await registerUser(t.app);
    expect((await call(session, 'GET', '/export')).body).toBe(
      'id,createdAt,level,type,code,description,adAccountId,ruleId\r\n',
    );
    expect(JSON.parse((await call(session, 'GET', '/export?format=json')).body)).toEqual([]);
  });
});

describe('the actor of an entry', () => {
  const actorOf = async (id: string) =>
    (
      await t.inspect((db) =>
        db.select({ actor: activityLogs.actorUserId }).from(activityLogs).where(eq(activityLogs.id, id)),
      )
    )[0]?.actor;

  it('records the member who wrote an entry, and no one for a rule run (a workspace job)', async () => {
    const session = await registerUser(t.app, { name: 'Nida Chaiyo' });
    const note = await call(session, 'POST', '', { description: 'Raised the budget by hand', level: 'info' });
    expect(note.statusCode).toBe(201);
    expect(await actorOf(note.json().data._id)).toBe(session.user.id);
    expect(note.json().data.actor).toEqual({ id: session.user.id, name: 'Nida Chaiyo' });

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rules',
      headers: session.auth,
      payload: buildRule(),
    });
    expect(created.statusCode).toBe(201);
    const ruleId: string = created.json().data.id;
    await t.modules.rules.runner.run({
      workspaceId: session.workspaceId,
      ruleId,
      slot: 'manual:actor',
      trigger: 'manual',
    });
    const entries = await t.inspect((db) =>
      db
        .select({ id: activityLogs.id, category: activityLogs.category, actor: activityLogs.actorUserId })
        .from(activityLogs)
        .where(eq(activityLogs.ruleId, ruleId)),
    );
    // The person who made the rule signs its "created" entry; the run's entry is the workspace's own.
    expect(entries.find((entry) => entry.category === 'rule_change')?.actor).toBe(session.user.id);
    const run = entries.find((entry) => entry.category === 'rule_run');
    expect(run).toEqual({ id: expect.any(String), category: 'rule_run', actor: null });

    // The API names the author of each entry of a page, and no one for the workspace's own.
    const logs = activityLogListResponse.parse((await call(session, 'GET', '')).json()).data.logs;
    expect(logs.find((log) => log._id === note.json().data._id)?.actor).toEqual({
      id: session.user.id,
      name: 'Nida Chaiyo',
    });
    expect(logs.find((log) => log._id === run!.id)?.actor).toBeNull();
    expect((await call(session, 'GET', `/${run!.id}`)).json().data.actor).toBeNull();
  });
});

describe('retention', () => {
  it('deletes entries older than LOG_RETENTION_DAYS and keeps the rest, for every user', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const old = new Date(t.clock.now.getTime() - 91 * 86_400_000).toISOString();
    const recent = new Date(t.clock.now.getTime() - 89 * 86_400_000).toISOString();
    for (const user of [a, b]) {
      await seedLogs(t, user.workspaceId, 0, [
        { level: 'info', category: 'sync', createdAt: old },
        { level: 'info', category: 'sync', createdAt: recent },
      ]);
    }
    const deleted = await runLogRetention({
      activity: t.modules.activity.service,
      retentionDays: 90,
      now: () => t.clock.now,
      log: t.app.log,
    });
    expect(deleted).toBeGreaterThanOrEqual(2);
    for (const user of [a, b]) {
      const rows = await t.inspect((db) =>
        db.select().from(activityLogs).where(eq(activityLogs.workspaceId, user.workspaceId)),
      );
      expect(rows.map((row) => row.createdAt.toISOString())).toEqual([recent]);
    }
  });
});

describe('authentication', () => {
  it('refuses every route without a token', async () => {
    for (const [method, url] of [
      ['GET', '/api/logs'],
      ['GET', '/api/logs/stats'],
      ['GET', '/api/logs/export'],
      ['POST', '/api/logs/clear'],
    ] as const) {
      const response = await t.app.inject({ method, url });
      expect(response.statusCode, url).toBe(401);
    }
  });
});
