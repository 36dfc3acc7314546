import { users, workspaceMembers, workspaces } from '@adpilot/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { createWorkspace, joinAs, putOnPlan, workspaceEntries } from '../../test/workspace-fixtures.ts';

describe('GET /api/workspaces', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const list = (auth: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/workspaces', headers: auth });

  it('shows a new user exactly their personal workspace, named after them, as owner', async () => {
    const session = await registerUser(t.app, { name: 'Dana Personal' });
    const response = await list(session.auth);
    expect(response.statusCode).toBe(200);
    const body = response.json() as { success: boolean; data: { id: string }[] };
    expect(body).toEqual({
      success: true,
      data: [{ id: expect.any(String), name: 'Dana Personal', role: 'owner', personal: true }],
    });
    // The same workspace the database holds for the user, made with them at sign-up.
    const stored = await t.inspect((db) =>
      db.select().from(workspaces).where(eq(workspaces.personalOwnerId, session.user.id)),
    );
    expect(stored.map((row) => row.id)).toEqual([body.data[0]?.id]);
  });

  it('shows no user another user’s workspaces, through the route or through row-level security alone', async () => {
    const alice = await registerUser(t.app, { name: 'Alice Apart' });
    const bob = await registerUser(t.app, { name: 'Bob Apart' });
    const aliceSees = (await list(alice.auth)).json() as { data: { id: string; name: string }[] };
    const bobSees = (await list(bob.auth)).json() as { data: { id: string; name: string }[] };
    expect(aliceSees.data.map((row) => row.name)).toEqual(['Alice Apart']);
    expect(bobSees.data.map((row) => row.name)).toEqual(['Bob Apart']);
    // Without the explicit filter: the policies alone hide Bob's workspace and membership from Alice.
    const seen = await t.inspect(async (db) => {
      await db.execute(sql`set local role adpilot_app`);
      await db.execute(sql`select set_config('app.user_id', ${alice.user.id}, true)`);
      return {
        spaces: await db.select({ id: workspaces.id }).from(workspaces),
        members: await db.select({ userId: workspaceMembers.userId }).from(workspaceMembers),
      };
    });
    expect(seen.spaces.map((row) => row.id)).toEqual([aliceSees.data[0]?.id]);
    expect(seen.members.map((row) => row.userId)).toEqual([alice.user.id]);
  });

  it('makes no user when the personal workspace cannot be made: one unit of work', async () => {
    // The workspace, written after the user row, is refused for this one name: the user row must go with it.
    await asOwner(t, sql.raw(`alter table workspaces add constraint test_refused_name check (name <> 'Refused Name')`));
    try {
      const email = `atomic-${Date.now()}@example.com`;
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { name: 'Refused Name', email, password: 'Sup3rSecret!' },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ success: false });
      expect(await t.inspect((db) => db.select().from(users).where(eq(users.email, email)))).toEqual([]);
    } finally {
      await asOwner(t, sql.raw('alter table workspaces drop constraint test_refused_name'));
    }
  });

  it('refuses a request without a session with the envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/workspaces' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false });
  });
});

type Session = Awaited<ReturnType<typeof registerUser>>;

describe('workspaces and their members', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, session: Session, payload?: object) =>
    t.app.inject({ method, url, headers: session.auth, ...(payload ? { payload } : {}) });
  const members = async (workspaceId: string, session: Session) =>
    (
      (await call('GET', `/api/workspaces/${workspaceId}/members`, session)).json() as {
        data: { userId: string; role: string }[];
      }
    ).data;
  /** A workspace on the business plan (10 seats) with an owner, an admin, an editor and a viewer. */
  async function team() {
    const owner = await registerUser(t.app);
    const id = await createWorkspace(t, owner, 'Agency');
    await putOnPlan(t, id, 'business');
    const admin = await joinAs(t, owner, id, 'admin');
    const editor = await joinAs(t, owner, id, 'editor');
    const viewer = await joinAs(t, owner, id, 'viewer');
    return { id, owner, admin, editor, viewer };
  }

  it('creates a shared workspace with its maker as owner, listed after the personal one, and logs it', async () => {
    const owner = await registerUser(t.app, { name: 'Olive Owner' });
    const response = await call('POST', '/api/workspaces', owner, { name: '  Client A  ' });
    expect(response.statusCode).toBe(201);
    const created = (response.json() as { data: { id: string } }).data;
    expect(created).toEqual({ id: expect.any(String), name: 'Client A', role: 'owner', personal: false });
    const listed = (await call('GET', '/api/workspaces', owner)).json() as { data: { name: string }[] };
    expect(listed.data.map((w) => w.name)).toEqual(['Olive Owner', 'Client A']);
    expect(await members(created.id, owner)).toEqual([
      { userId: owner.user.id, name: 'Olive Owner', email: owner.user.email, role: 'owner' },
    ]);
    expect(await workspaceEntries(t, created.id)).toEqual([
      { code: 'workspace_created', actorUserId: owner.user.id, params: { workspace: 'Client A' } },
    ]);
    expect((await call('POST', '/api/workspaces', owner, { name: ' ' })).statusCode).toBe(400);
    expect((await call('POST', '/api/workspaces', owner, { name: 'Nul\u0000name' })).statusCode).toBe(400);
    expect((await call('POST', '/api/workspaces', owner, { name: 'Extra', personal: true })).statusCode).toBe(400);
  });

  it('renames for an admin or owner, refuses an editor with the role named, logs the rename', async () => {
    const { id, admin, editor } = await team();
    const refused = await call('PATCH', `/api/workspaces/${id}`, editor, { name: 'Nope' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This needs an admin of this workspace (or higher)',
    });
    const renamed = await call('PATCH', `/api/workspaces/${id}`, admin, { name: 'Agency Two' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ data: { id, name: 'Agency Two', role: 'admin', personal: false } });
    expect((await workspaceEntries(t, id)).at(-1)).toEqual({
      code: 'workspace_renamed',
      actorUserId: admin.user.id,
      params: { from: 'Agency', to: 'Agency Two' },
    });
  });

  it('answers 404 on every :id route to someone who is not a member, and 400 for an id that is no uuid', async () => {
    const { id, owner } = await team();
    const stranger = await registerUser(t.app);
    const routes: ['GET' | 'POST' | 'PATCH' | 'DELETE', string, object?][] = [
      ['PATCH', `/api/workspaces/${id}`, { name: 'Mine now' }],
      ['DELETE', `/api/workspaces/${id}`],
      ['GET', `/api/workspaces/${id}/members`],
      ['PATCH', `/api/workspaces/${id}/members/${owner.user.id}`, { role: 'viewer' }],
      ['DELETE', `/api/workspaces/${id}/members/${owner.user.id}`],
      ['POST', `/api/workspaces/${id}/invitations`, { email: 'x@example.com', role: 'viewer' }],
      ['GET', `/api/workspaces/${id}/invitations`],
    ];
    for (const [method, url, payload] of routes) {
      const response = await call(method, url, stranger, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toMatchObject({ success: false, code: 'NOT_FOUND', message: 'Workspace not found' });
    }
    expect((await call('GET', '/api/workspaces/not-a-uuid/members', stranger)).statusCode).toBe(400);
    expect(await members(id, owner)).toHaveLength(4);
  });

  it('lists the members to any member, and never another workspace’s members, even through RLS alone', async () => {
    const { id, owner, admin, editor, viewer } = await team();
    const seen = await members(id, viewer);
    expect(seen.map((m) => [m.userId, m.role])).toEqual([
      [owner.user.id, 'owner'],
      [admin.user.id, 'admin'],
      [editor.user.id, 'editor'],
      [viewer.user.id, 'viewer'],
    ]);
    // The viewer's own unit of work sees their own membership rows only: the list is read on the system path.
    const direct = await t.inspect(async (db) => {
      await db.execute(sql`set local role adpilot_app`);
      await db.execute(sql`select set_config('app.user_id', ${viewer.user.id}, true)`);
      return db
        .select({ userId: workspaceMembers.userId })
        .from(workspaceMembers)
        .where(eq(workspaceMembers.workspaceId, id));
    });
    expect(direct).toEqual([{ userId: viewer.user.id }]);
  });

  it('changes roles: admins below owner, only an owner makes or unmakes an owner, the last owner stays', async () => {
    const { id, owner, admin, editor, viewer } = await team();
    const role = (by: Session, userId: string, to: string) =>
      call('PATCH', `/api/workspaces/${id}/members/${userId}`, by, { role: to });

    expect((await role(editor, viewer.user.id, 'editor')).statusCode).toBe(403);
    const promoted = await role(admin, viewer.user.id, 'editor');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ data: { userId: viewer.user.id, role: 'editor' } });

    const toOwner = await role(admin, editor.user.id, 'owner');
    expect(toOwner.statusCode).toBe(403);
    expect(toOwner.json()).toMatchObject({ message: 'This needs an owner of this workspace (or higher)' });
    expect((await role(admin, owner.user.id, 'viewer')).statusCode).toBe(403);

    const last = await role(owner, owner.user.id, 'admin');
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ code: 'WORKSPACE_LAST_OWNER' });

    expect((await role(owner, admin.user.id, 'owner')).statusCode).toBe(200);
    // Two owners now: the one who pays for the workspace stays owner (ADR 0110), the other may step down.
    const payer = await role(admin, owner.user.id, 'admin');
    expect(payer.statusCode).toBe(409);
    expect(payer.json()).toMatchObject({ code: 'WORKSPACE_PAYER' });
    expect((await role(owner, admin.user.id, 'admin')).statusCode).toBe(200);
    expect((await role(owner, admin.user.id, 'viewer')).statusCode).toBe(200);
    expect((await role(owner, '00000000-0000-4000-8000-000000000000', 'viewer')).statusCode).toBe(404);

    const entries = (await workspaceEntries(t, id)).filter((e) => e.code === 'workspace_member_role_changed');
    expect(entries[0]).toEqual({
      code: 'workspace_member_role_changed',
      actorUserId: admin.user.id,
      params: { member: expect.any(String), from: 'viewer', to: 'editor' },
    });
    expect(entries).toHaveLength(4);
  });

  it('removes members: admins remove below owner, anyone leaves, the last owner cannot', async () => {
    const { id, owner, admin, editor, viewer } = await team();
    const remove = (by: Session, userId: string) => call('DELETE', `/api/workspaces/${id}/members/${userId}`, by);

    expect((await remove(editor, viewer.user.id)).statusCode).toBe(403);
    expect((await remove(admin, owner.user.id)).statusCode).toBe(403);
    expect((await remove(admin, editor.user.id)).statusCode).toBe(200);
    expect((await remove(viewer, viewer.user.id)).statusCode).toBe(200);
    const last = await remove(owner, owner.user.id);
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ code: 'WORKSPACE_LAST_OWNER' });
    expect((await members(id, owner)).map((m) => m.userId)).toEqual([owner.user.id, admin.user.id]);

    const entries = await workspaceEntries(t, id);
    expect(entries.filter((e) => e.code === 'workspace_member_removed')).toEqual([
      { code: 'workspace_member_removed', actorUserId: admin.user.id, params: { member: expect.any(String) } },
    ]);
    expect(entries.filter((e) => e.code === 'workspace_member_left')).toEqual([
      { code: 'workspace_member_left', actorUserId: viewer.user.id, params: { member: expect.any(String) } },
    ]);
  });

  it('refuses a removed member’s very next request in that workspace, and a demoted one’s next write', async () => {
    const { id, owner, editor, viewer } = await team();
    const logs = (session: Session) =>
      t.app.inject({ method: 'GET', url: '/api/logs', headers: { ...session.auth, 'x-workspace-id': id } });
    // The member's request warms the membership cache first.
    expect((await logs(viewer)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/workspaces/${id}/members/${viewer.user.id}`, owner)).statusCode).toBe(200);
    const refused = await logs(viewer);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Workspace not found' });

    expect((await members(id, editor)).length).toBe(3);
    expect(
      (await call('PATCH', `/api/workspaces/${id}/members/${editor.user.id}`, owner, { role: 'viewer' })).statusCode,
    ).toBe(200);
    const listed = (await call('GET', '/api/workspaces', editor)).json() as { data: { id: string; role: string }[] };
    expect(listed.data.find((w) => w.id === id)?.role).toBe('viewer');
  });

  it('deletes a shared workspace for its owner only; a personal one stays; members are refused at once', async () => {
    const { id, owner, admin } = await team();
    const adminTried = await call('DELETE', `/api/workspaces/${id}`, admin);
    expect(adminTried.statusCode).toBe(403);
    expect(adminTried.json()).toMatchObject({ message: 'This needs an owner of this workspace (or higher)' });

    const personal = ((await call('GET', '/api/workspaces', owner)).json() as { data: { id: string }[] }).data[0];
    const kept = await call('DELETE', `/api/workspaces/${personal?.id}`, owner);
    expect(kept.statusCode).toBe(409);
    expect(kept.json()).toMatchObject({ code: 'WORKSPACE_PERSONAL' });

    const logs = () =>
      t.app.inject({ method: 'GET', url: '/api/logs', headers: { ...admin.auth, 'x-workspace-id': id } });
    expect((await logs()).statusCode).toBe(200);
    expect((await call('DELETE', `/api/workspaces/${id}`, owner)).statusCode).toBe(200);
    expect((await logs()).statusCode).toBe(404);
    expect(await t.inspect((db) => db.select().from(workspaces).where(eq(workspaces.id, id)))).toEqual([]);
    // The entry is kept in the owner's personal workspace, since the workspace's own log went with it.
    expect((await workspaceEntries(t, personal?.id ?? '')).at(-1)).toEqual({
      code: 'workspace_deleted',
      actorUserId: owner.user.id,
      params: { workspace: 'Agency' },
    });
  });

  it('keeps the owner of a personal workspace its owner, even beside another owner', async () => {
    const owner = await registerUser(t.app);
    const personal =
      ((await call('GET', '/api/workspaces', owner)).json() as { data: { id: string }[] }).data[0]?.id ?? '';
    await putOnPlan(t, personal, 'pro');
    const partner = await joinAs(t, owner, personal, 'owner');
    const demoted = await call('PATCH', `/api/workspaces/${personal}/members/${owner.user.id}`, partner, {
      role: 'admin',
    });
    expect(demoted.statusCode).toBe(409);
    expect(demoted.json()).toMatchObject({ code: 'WORKSPACE_PERSONAL' });
    expect((await call('DELETE', `/api/workspaces/${personal}/members/${owner.user.id}`, partner)).statusCode).toBe(
      409,
    );
    // The partner's own default workspace is still their own personal one.
    const partnerList = (await call('GET', '/api/workspaces', partner)).json() as {
      data: { id: string; personal: boolean }[];
    };
    expect(partnerList.data.map((w) => w.id)).toContain(personal);
    expect(partnerList.data[0]?.id).not.toBe(personal);
  });
});
