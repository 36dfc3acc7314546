import { activityLogs, notificationSettings, type TenantScope } from '@adpilot/db';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLineFake, type RunningLineFake } from '../../test/line-fake.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { createWorkspace, joinAs, putOnPlan } from '../../test/workspace-fixtures.ts';
import { lineRetryKey } from './line-delivery.ts';
import { NOTIFY_JOBS } from './notification-dispatcher.ts';

const TOKEN = 'line-test-token';
const RETRY = { limit: 2, delaySeconds: 1 };
let targets = 0;
/** A new LINE user id: `U` and 32 hex digits. */
const newTarget = (letter: 'U' | 'C' | 'R' = 'U') => `${letter}${(++targets).toString(16).padStart(32, '0')}`;

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out');
}

describe('the LINE channel', () => {
  let t: TestApp;
  let fake: RunningLineFake;

  beforeAll(async () => {
    fake = await startLineFake({ tokens: [TOKEN] });
    t = await createTestApp(
      { LINE_API_URL: fake.url },
      { webhookRetry: RETRY, jobQueue: { pollingIntervalSeconds: 0.5 } },
    );
    await t.ctx.jobs.start({ work: true });
  }, 60_000);

  afterAll(async () => {
    await t.ctx.jobs.stop();
    await t.close();
    await fake.close();
  }, 60_000);

  type Session = Awaited<ReturnType<typeof registerUser>>;

  const settings = (session: Session, payload: object) =>
    t.app.inject({ method: 'PUT', url: '/api/notifications', headers: session.auth, payload });

  const sendTest = (session: Session) =>
    t.app.inject({
      method: 'POST',
      url: '/api/notifications/test',
      headers: session.auth,
      payload: { channel: 'line' },
    });

  async function writeEntry(scope: TenantScope, description: string, level: 'error' | 'info' = 'error') {
    return t.database.tenant(scope, async (tx) => {
      const [row] = await tx.db
        .insert(activityLogs)
        .values({ workspaceId: scope.workspaceId, metadata: {}, level, category: 'sync', description })
        .returning({ id: activityLogs.id });
      return row!.id;
    });
  }

  /** Until no LINE job is waiting or running. */
  async function settled(): Promise<void> {
    await waitFor(async () => ((await t.ctx.jobs.backlog([NOTIFY_JOBS.line])) === 0 ? true : undefined), 45_000);
  }

  async function notificationEntries(workspaceId: string) {
    return t.inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, workspaceId), eq(activityLogs.category, 'notification'))),
    );
  }

  it('keeps the token sealed and answers only its hint; checks the target and what turning on needs', async () => {
    const session = await registerUser(t.app);
    const first = (await t.app.inject({ method: 'GET', url: '/api/notifications', headers: session.auth })).json();
    expect(first.data.line).toEqual({ target: null, tokenHint: null, enabled: false });

    const token = `${'A'.repeat(150)}+/tok=`;
    const target = newTarget('C');
    const saved = await settings(session, { lineToken: token, lineTarget: target, line: true });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.line).toEqual({ target, tokenHint: '…tok=', enabled: true });
    expect(saved.body).not.toContain(token);
    const again = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: session.auth });
    expect(again.body).not.toContain(token);
    const [row] = await t.inspect((db) =>
      db.select().from(notificationSettings).where(eq(notificationSettings.userId, session.user.id)),
    );
    expect(row?.lineTokenEnc).toMatch(/^v1\./);
    expect(row?.lineTokenEnc).not.toContain(token);
    expect(t.secretBox.decrypt(row!.lineTokenEnc!)).toBe(token);

    // null removes the channel: token, target and on.
    const removed = await settings(session, { lineToken: null });
    expect(removed.json().data.line).toEqual({ target: null, tokenHint: null, enabled: false });
  });

  it.each([
    [{ lineTarget: 'U123' }, 'lineTarget'],
    [{ lineTarget: `X${'0'.repeat(32)}` }, 'lineTarget'],
    [{ lineTarget: `U${'A'.repeat(32)}` }, 'lineTarget'],
    [{ lineTarget: `U${'0'.repeat(33)}` }, 'lineTarget'],
    [{ lineToken: 'has a space' }, 'lineToken'],
    [{ lineToken: 'x'.repeat(1025) }, 'lineToken'],
    [{ line: true }, 'line'],
    [{ lineTarget: newTarget(), line: true }, 'line'],
  ])('refuses %j with a 400 on %s', async (payload, field) => {
    const session = await registerUser(t.app);
    const response = await settings(session, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.json().errors[0]).toMatchObject({ field });
  });

  it('sends a test push with a fresh retry key each time, and says why one failed', async () => {
    const session = await registerUser(t.app);
    expect((await sendTest(session)).statusCode).toBe(400);
    const target = newTarget('R');
    await settings(session, { lineToken: TOKEN, lineTarget: target, language: 'th' });
    const first = await sendTest(session);
    expect(first.json().data).toEqual({ channel: 'line', delivered: true, status: 200, code: null });
    expect((await sendTest(session)).json().data.delivered).toBe(true);
    const mine = fake.pushes.filter((push) => push.to === target);
    expect(mine).toHaveLength(2);
    expect(mine[0]!.retryKey).not.toBe(mine[1]!.retryKey);
    expect(mine[0]!.texts[0]).toContain('AdPilot');
    expect(mine[0]!.texts[0]).toMatch(/[\u0E00-\u0E7F]/);

    await settings(session, { lineToken: 'not-the-channel-token' });
    expect((await sendTest(session)).json().data).toEqual({
      channel: 'line',
      delivered: false,
      status: 401,
      code: 'unauthorized',
    });
  });

  it('pushes each due entry once per member, with a retry key per entry and member, even when the job is retried', async () => {
    const owner = await registerUser(t.app);
    const workspaceId = await createWorkspace(t, owner);
    await putOnPlan(t, workspaceId, 'business');
    const member = await joinAs(t, owner, workspaceId, 'editor');
    const before = await writeEntry({ workspaceId, userId: owner.user.id }, 'Failed before LINE was on');
    const ownerTarget = newTarget();
    const memberTarget = newTarget('C');
    await settings(owner, { lineToken: TOKEN, lineTarget: ownerTarget, line: true });
    await settings(member, { lineToken: TOKEN, lineTarget: memberTarget, line: true, language: 'th' });

    // The first push is accepted but its answer is lost: the job fails, pg-boss retries it with the same key.
    fake.failNext(500, 1, { accept: true });
    const id = await writeEntry({ workspaceId, userId: owner.user.id }, 'Sync of Shop failed');
    await writeEntry({ workspaceId, userId: owner.user.id }, 'Synced Shop', 'info');
    await t.modules.notifications.dispatcher.scanAll();
    await t.modules.notifications.dispatcher.scanAll();
    const keys = [lineRetryKey(id, owner.user.id), lineRetryKey(id, member.user.id)];
    // Whichever push came first was retried: LINE answered its retry 409.
    await waitFor(() =>
      fake.requests.some((r) => keys.includes(r.retryKey ?? '') && r.status === 409) ? true : undefined,
    );
    await settled();
    expect(
      fake.requests
        .filter((r) => keys.includes(r.retryKey ?? ''))
        .map((r) => r.status)
        .sort(),
    ).toEqual([200, 409, 500]);

    const ownerPushes = fake.pushes.filter((push) => push.to === ownerTarget);
    const memberPushes = fake.pushes.filter((push) => push.to === memberTarget);
    expect(ownerPushes).toHaveLength(1);
    expect(memberPushes).toHaveLength(1);
    expect(ownerPushes[0]!.retryKey).toBe(lineRetryKey(id, owner.user.id));
    expect(memberPushes[0]!.retryKey).toBe(lineRetryKey(id, member.user.id));
    expect(ownerPushes[0]!.texts[0]).toContain('Error: Sync of Shop failed');
    expect(ownerPushes[0]!.texts[0]).toMatch(/\/activity$/);
    expect(memberPushes[0]!.texts[0]).toContain('ข้อผิดพลาด: Sync of Shop failed');
    expect(fake.pushes.some((push) => push.texts[0]?.includes('before LINE was on'))).toBe(false);
    expect(fake.requests.filter((r) => r.retryKey === lineRetryKey(before, owner.user.id))).toHaveLength(0);
    // A 409 is a push LINE already has: no failure entry.
    expect(await notificationEntries(workspaceId)).toHaveLength(0);
  }, 60_000);

  it.each([
    [401, 'notification_line_unauthorized'],
    [403, 'notification_line_forbidden'],
    [429, 'notification_line_quota'],
  ])(
    'writes a coded entry at once, without retrying, when LINE answers %i',
    async (status, code) => {
      const session = await registerUser(t.app);
      const target = newTarget();
      await settings(session, { lineToken: TOKEN, lineTarget: target, line: true });
      if (status === 401) fake.tokens.delete(TOKEN);
      else fake.failNext(status);
      try {
        const id = await writeEntry(session.scope, `Failure for ${status}`);
        await t.modules.notifications.dispatcher.scanWorkspace(session.workspaceId);
        const [entry] = await waitFor(async () => {
          const rows = await notificationEntries(session.workspaceId);
          return rows.length > 0 ? rows : undefined;
        });
        expect(entry).toMatchObject({
          level: 'error',
          metadata: { code, params: { target }, activityId: id },
        });
        await settled();
      } finally {
        fake.tokens.add(TOKEN);
      }
      expect(fake.requests.filter((r) => r.status === status && r.retryKey)).not.toHaveLength(0);
      expect(fake.pushes.filter((push) => push.to === target)).toHaveLength(0);
      // The failure entry is an error, but it is never pushed to LINE itself (no loop).
      await t.modules.notifications.dispatcher.scanWorkspace(session.workspaceId);
      await settled();
      expect(fake.pushes.filter((push) => push.to === target)).toHaveLength(0);
    },
    60_000,
  );

  it('retries a 5xx with the same key, then writes notification_line_failed', async () => {
    const session = await registerUser(t.app);
    const target = newTarget();
    await settings(session, { lineToken: TOKEN, lineTarget: target, line: true });
    fake.failNext(503, RETRY.limit + 1);
    const id = await writeEntry(session.scope, 'Sync failed');
    await t.modules.notifications.dispatcher.scanWorkspace(session.workspaceId);
    const [entry] = await waitFor(async () => {
      const rows = await notificationEntries(session.workspaceId);
      return rows.length > 0 ? rows : undefined;
    }, 45_000);
    expect(entry?.metadata).toMatchObject({
      code: 'notification_line_failed',
      params: { target, attempts: RETRY.limit + 1, reason: 'server', status: 503 },
    });
    const key = lineRetryKey(id, session.user.id);
    expect(fake.requests.filter((r) => r.retryKey === key).map((r) => r.status)).toEqual([503, 503, 503]);
  }, 60_000);

  it('sends nothing once LINE is turned off', async () => {
    const session = await registerUser(t.app);
    const target = newTarget();
    await settings(session, { lineToken: TOKEN, lineTarget: target, line: true });
    await settings(session, { line: false });
    await writeEntry(session.scope, 'After LINE was turned off');
    await t.modules.notifications.dispatcher.scanWorkspace(session.workspaceId);
    await settled();
    expect(fake.pushes.filter((push) => push.to === target)).toHaveLength(0);
    const [row] = await t
      .inspect((db) => db.execute(sql`select line_since from notification_settings where user_id = ${session.user.id}`))
      .then((result) => (result as unknown as { rows: { line_since: Date | null }[] }).rows);
    expect(row?.line_since).toBeNull();
  });
});
