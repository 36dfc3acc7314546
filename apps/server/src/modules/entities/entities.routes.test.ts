import { addDays, localDate } from '@adpilot/contracts';
import { adEntities } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReportAccount } from '../../test/report-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { createWorkspace, joinAs, putOnPlan } from '../../test/workspace-fixtures.ts';

describe('/api/entities', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const bangkokToday = () => localDate('Asia/Bangkok', t.clock.now.getTime());

  /** A THB and a USD account, each with two campaigns whose days start 20 days ago (the first day with data). */
  async function seedTwo(workspaceId: string) {
    const today = bangkokToday();
    const day = (n: number) => addDays(today, -n);
    const th = await seedReportAccount(t, workspaceId, {
      name: 'Shop TH',
      currency: 'THB',
      days: [
        ['a', day(1), 100, 4, 400],
        ['a', day(3), 50, 0, 0],
        ['b', day(2), 30.25, 1, 10],
        ['a', day(9), 70, 2, 100],
        ['a', day(20), 5, 0, 0],
      ],
    });
    const us = await seedReportAccount(t, workspaceId, {
      name: 'Shop US',
      currency: 'USD',
      timezone: 'Asia/Bangkok',
      days: [['c', day(1), 9.5, 1, 20]],
    });
    return { th, us, today };
  }

  const get = (auth: Record<string, string>, url: string) => t.app.inject({ method: 'GET', url, headers: auth });

  it('lists campaigns with their window and the previous one, and one total per currency', async () => {
    const session = await registerUser(t.app);
    const { th } = await seedTwo(session.workspaceId);
    const response = await get(session.auth, '/api/entities?level=campaign&window=last_7d&sort=-spend');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.data.map((row: { name: string }) => row.name)).toEqual(['Campaign a', 'Campaign b', 'Campaign c']);
    const a = body.data[0];
    expect(a).toMatchObject({ adAccountId: th, level: 'campaign', currency: 'THB', effectiveStatus: 'ACTIVE' });
    expect(a.metrics).toMatchObject({ spend: 150, results: 4, cpa: 37.5, roas: 400 / 150 });
    // The previous 7 days: day 9 only (day 20 is before both windows).
    expect(a.previous).toMatchObject({ spend: 70, results: 2, cpa: 35 });
    expect(a.metrics.ctr).toBeNull();
    expect(body.totals).toEqual([
      expect.objectContaining({
        currency: 'THB',
        count: 2,
        metrics: expect.objectContaining({ spend: 180.25, results: 5 }),
      }),
      expect.objectContaining({
        currency: 'USD',
        count: 1,
        metrics: expect.objectContaining({ spend: 9.5, results: 1 }),
      }),
    ]);
    expect(body.total).toBe(3);
    expect(body.nextCursor).toBeNull();
    const account = body.accounts.find((w: { adAccountId: string }) => w.adAccountId === th);
    const today = bangkokToday();
    expect(account).toMatchObject({
      from: addDays(today, -7),
      to: addDays(today, -1),
      previousFrom: addDays(today, -14),
      previousTo: addDays(today, -8),
      firstDataDay: addDays(today, -20),
      timezone: 'Asia/Bangkok',
    });
  });

  it('pages with a cursor bound to its query, searches names and filters statuses', async () => {
    const session = await registerUser(t.app);
    await seedTwo(session.workspaceId);
    const first = (await get(session.auth, '/api/entities?sort=name&limit=2')).json();
    expect(first.data.map((row: { name: string }) => row.name)).toEqual(['Campaign a', 'Campaign b']);
    const second = (await get(session.auth, `/api/entities?sort=name&limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.data.map((row: { name: string }) => row.name)).toEqual(['Campaign c']);
    expect(second.nextCursor).toBeNull();
    const other = await get(session.auth, `/api/entities?sort=-spend&limit=2&cursor=${first.nextCursor}`);
    expect(other.statusCode).toBe(400);
    expect(other.json().errors[0].field).toBe('cursor');
    const found = (await get(session.auth, '/api/entities?q=GN%20B')).json();
    expect(found.data.map((row: { name: string }) => row.name)).toEqual(['Campaign b']);
    await t.inspect((db) => db.update(adEntities).set({ effectiveStatus: 'PAUSED', status: 'PAUSED' }));
    const paused = (await get(session.auth, '/api/entities?status=paused')).json();
    expect(paused.total).toBeGreaterThanOrEqual(3);
    expect(paused.data.every((row: { effectiveStatus: string }) => row.effectiveStatus === 'PAUSED')).toBe(true);
  });

  it('refuses bad queries with a field message, never a 500', async () => {
    const session = await registerUser(t.app);
    for (const query of [
      'sort=-nope',
      'from=2026-01-02',
      'from=2026-02-01&to=2026-01-01',
      'level=account',
      'status=FOO',
      'limit=501',
    ]) {
      const response = await get(session.auth, `/api/entities?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    }
  });

  it('shows an entity’s days: "no data" before the first day with data, never zero, and settling days', async () => {
    const session = await registerUser(t.app);
    const { today } = await seedTwo(session.workspaceId);
    const list = (await get(session.auth, '/api/entities?q=Campaign%20a')).json();
    const id = list.data[0].id;
    const response = await get(session.auth, `/api/entities/${id}?window=last_90d`);
    expect(response.statusCode, response.body).toBe(200);
    const detail = response.json().data;
    expect(detail.daily).toHaveLength(90);
    const first = addDays(today, -20);
    for (const day of detail.daily) {
      if (day.date < first) expect(day, day.date).toMatchObject({ hasData: false, spend: null, results: null });
      else expect(day.hasData, day.date).toBe(true);
    }
    expect(detail.daily.find((d: { date: string }) => d.date === addDays(today, -3))).toMatchObject({
      spend: 50,
      results: 0,
      settling: true,
    });
    expect(detail.daily.find((d: { date: string }) => d.date === addDays(today, -5)).spend).toBe(0);
    expect(detail.daily.find((d: { date: string }) => d.date === addDays(today, -20)).settling).toBe(false);
    expect(detail.account.name).toBe('Shop TH');
    expect(detail.history).toEqual([]);
  });

  it('exports the table as shown, CSV and XLSX, named by the accounts’ local date', async () => {
    const session = await registerUser(t.app);
    const { today } = await seedTwo(session.workspaceId);
    await t.inspect((db) =>
      db.update(adEntities).set({ name: '=HYPERLINK("x")' }).where(eq(adEntities.name, 'Campaign b')),
    );
    const csv = await get(session.auth, '/api/entities/export?format=csv&sort=-spend&columns=spend,cpa');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="adpilot-campaigns-${today}.csv"`);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Name,Level,Campaign,Ad set,Ad account,Meta id,Status,Daily budget,Lifetime budget,Budget held by,Currency,Spend,Spend (previous period),CPA,CPA (previous period)',
    );
    expect(lines).toHaveLength(1 + 3 + 2);
    expect(lines[1]).toMatch(/^Campaign a,campaign,,,Shop TH,.*,THB,150,70,37.5,35$/);
    expect(lines.some((line) => line.startsWith(`"'=HYPERLINK(""x"")"`))).toBe(true);
    expect(lines.slice(-2).map((line) => line.split(',')[0])).toEqual(['Total (THB)', 'Total (USD)']);
    const file = await get(session.auth, '/api/entities/export?format=xlsx&level=campaign');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('keeps each workspace to its own entities', async () => {
    const owner = await registerUser(t.app);
    await seedTwo(owner.workspaceId);
    const id = (await get(owner.auth, '/api/entities')).json().data[0].id;
    const stranger = await registerUser(t.app);
    expect((await get(stranger.auth, '/api/entities')).json().data).toEqual([]);
    expect((await get(stranger.auth, `/api/entities/${id}`)).statusCode).toBe(404);
    const th = (await get(owner.auth, '/api/entities')).json().data[0].adAccountId;
    expect((await get(stranger.auth, `/api/entities?adAccountId=${th}`)).statusCode).toBe(404);
  });

  it('lets a viewer read but not act (403)', async () => {
    const owner = await registerUser(t.app);
    const workspaceId = await createWorkspace(t, owner);
    await putOnPlan(t, workspaceId, 'business');
    await seedTwo(workspaceId);
    const viewer = await joinAs(t, owner, workspaceId, 'viewer');
    const auth = { ...viewer.auth, 'x-workspace-id': workspaceId };
    const list = await get(auth, '/api/entities');
    expect(list.statusCode).toBe(200);
    const id = list.json().data[0].id;
    const act = await t.app.inject({
      method: 'POST',
      url: '/api/entities/actions',
      headers: auth,
      payload: { items: [{ entityId: id, type: 'pause' }] },
    });
    expect(act.statusCode).toBe(403);
    expect(act.json().code).toBe('FORBIDDEN');
  });
});
