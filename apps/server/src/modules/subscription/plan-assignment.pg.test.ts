import { SUBSCRIPTION_MESSAGES } from '@adpilot/contracts';
import { activityLogs, users } from '@adpilot/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

/** Plans without Stripe: self-service on the sandbox demo only; elsewhere the administrator assigns them (ADR 0087). */
type Session = Awaited<ReturnType<typeof registerUser>>;

const upgrade = (t: TestApp, session: Session, planId: string) =>
  t.app.inject({ method: 'POST', url: '/api/subscription/upgrade', headers: session.auth, payload: { planId } });
const current = async (t: TestApp, session: Session) =>
  (await t.app.inject({ method: 'GET', url: '/api/subscription/current', headers: session.auth })).json().data;

async function makeAdmin(t: TestApp): Promise<Session> {
  const admin = await registerUser(t.app);
  await t.inspect((db) => db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.user.id)));
  return admin;
}

async function asPlainUser(t: TestApp): Promise<Session> {
  const user = await registerUser(t.app);
  await t.inspect((db) => db.update(users).set({ role: 'user' }).where(eq(users.id, user.user.id)));
  return user;
}

describe('an instance that is not the sandbox demo (Meta configured, no Stripe)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ META_APP_ID: '1234567890', META_APP_SECRET: 'a-meta-app-secret' });
  });
  afterAll(() => t.close());

  it('refuses a user who picks a plan: 403 PLAN_CHANGE_BY_ADMIN, and the plan stays', async () => {
    const user = await asPlainUser(t);
    const response = await upgrade(t, user, 'enterprise');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'PLAN_CHANGE_BY_ADMIN', message: SUBSCRIPTION_MESSAGES.planByAdmin });
    expect(await current(t, user)).toMatchObject({ plan: 'free', assignedByAdmin: true });
  });

  it("lets the administrator assign a workspace's plan, signed in its log", async () => {
    const admin = await makeAdmin(t);
    const user = await asPlainUser(t);

    const listed = await t.app.inject({ method: 'GET', url: '/api/admin/workspaces', headers: admin.auth });
    expect(listed.statusCode).toBe(200);
    const row = listed.json().data.find((w: { id: string }) => w.id === user.workspaceId);
    expect(row).toMatchObject({ plan: 'free', personal: true, members: 1 });
    expect(row.owners).toEqual([expect.objectContaining({ id: user.user.id, email: user.user.email })]);

    const assigned = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/workspaces/${user.workspaceId}/plan`,
      headers: admin.auth,
      payload: { planId: 'business' },
    });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().data).toMatchObject({ id: user.workspaceId, plan: 'business' });
    expect(await current(t, user)).toMatchObject({ plan: 'business', assignedByAdmin: true });
    // Going back to free is a plan change as well: the administrator's too.
    const cancel = await t.app.inject({ method: 'POST', url: '/api/subscription/cancel', headers: user.auth });
    expect(cancel.statusCode).toBe(403);
    expect(cancel.json().code).toBe('PLAN_CHANGE_BY_ADMIN');
    expect(await current(t, user)).toMatchObject({ plan: 'business' });

    const adminName = (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: admin.auth })).json().data
      .name;
    expect(adminName).toEqual(expect.any(String));
    const [entry] = await t.inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, user.workspaceId), eq(activityLogs.category, 'billing'))),
    );
    expect(entry?.metadata).toMatchObject({
      code: 'plan_assigned',
      params: { from: 'free', to: 'business', admin: adminName },
      adminId: admin.user.id,
    });
  });

  it('keeps the Users page and the assignment to the administrator, and answers 404 for an unknown workspace', async () => {
    const admin = await makeAdmin(t);
    const user = await asPlainUser(t);
    const listed = await t.app.inject({ method: 'GET', url: '/api/admin/workspaces', headers: user.auth });
    expect(listed.statusCode).toBe(403);
    const assigned = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/workspaces/${user.workspaceId}/plan`,
      headers: user.auth,
      payload: { planId: 'enterprise' },
    });
    expect(assigned.statusCode).toBe(403);
    expect(await current(t, user)).toMatchObject({ plan: 'free' });

    const unknown = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/workspaces/00000000-0000-4000-8000-000000000000/plan',
      headers: admin.auth,
      payload: { planId: 'pro' },
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/workspaces/${user.workspaceId}/plan`,
      headers: admin.auth,
      payload: { planId: 'platinum' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the sandbox demo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('keeps self-service plans so people can try them', async () => {
    const user = await asPlainUser(t);
    expect(await current(t, user)).toMatchObject({ assignedByAdmin: false });
    const response = await upgrade(t, user, 'pro');
    expect(response.statusCode).toBe(200);
    expect(response.json().data.subscription).toMatchObject({ plan: 'pro' });
  });
});
