import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerOnPlan, registerUser, type TestApp } from '../../test/test-app.ts';
import { createWorkspace, joinAs, signInAgain } from '../../test/workspace-fixtures.ts';

/** My account (issue 31): the person's own profile, password, sessions, workspaces and plan, and the deletion. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Session = Awaited<ReturnType<typeof registerUser>>;

const call = (session: Session, method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { ...session.auth, 'user-agent': 'Test browser/1.0' }, payload });

describe('GET and PATCH /api/account', () => {
  it('answers the profile, the workspaces with their payer and the plan the person pays for', async () => {
    const owner = await registerOnPlan(t.app, 'pro');
    const client = await createWorkspace(t, owner, 'Client A');
    const viewer = await joinAs(t, owner, client, 'viewer');
    const response = await call(owner, 'GET', '/api/account');
    expect(response.statusCode).toBe(200);
    const account = response.json().data;
    expect(account).toMatchObject({
      id: owner.user.id,
      name: owner.user.name,
      email: owner.user.email,
      language: 'en',
      timeZone: 'UTC',
      plan: { id: 'pro', workspaces: 2 },
    });
    expect(account.workspaces).toEqual([
      expect.objectContaining({ id: owner.workspaceId, personal: true, role: 'owner', paidByYou: true }),
      expect.objectContaining({
        id: client,
        name: 'Client A',
        role: 'owner',
        paidByYou: true,
        members: [{ userId: viewer.user.id, name: viewer.user.name, role: 'viewer' }],
      }),
    ]);
    // The viewer sees the client workspace as someone else's, and pays for no more than their own.
    const theirs = (await call(viewer, 'GET', '/api/account')).json().data;
    expect(theirs.plan).toEqual({ id: 'free', workspaces: 1 });
    expect(theirs.workspaces[1]).toMatchObject({ id: client, role: 'viewer', paidByYou: false });
    expect(JSON.stringify(theirs)).not.toContain(owner.user.email);
  });

  it('changes the name, language and time zone; the notifier follows the last two', async () => {
    const person = await registerUser(t.app);
    const response = await call(person, 'PATCH', '/api/account', {
      name: 'Somchai Jaidee',
      language: 'th',
      timeZone: 'Asia/Bangkok',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ name: 'Somchai Jaidee', language: 'th', timeZone: 'Asia/Bangkok' });
    const settings = (await call(person, 'GET', '/api/notifications')).json().data;
    expect(settings).toMatchObject({ language: 'th', timeZone: 'Asia/Bangkok' });
    expect((await call(person, 'GET', '/api/auth/me')).json().data.name).toBe('Somchai Jaidee');
  });

  it('refuses bad input in the envelope', async () => {
    const person = await registerUser(t.app);
    for (const payload of [{ timeZone: 'Mars/Olympus' }, { name: 'x' }, { language: 'fr' }, { role: 'admin' }]) {
      const response = await call(person, 'PATCH', '/api/account', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    }
  });

  it('is a person route: signed out is 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/account' })).statusCode).toBe(401);
  });
});

describe('sessions and password', () => {
  it('lists the sessions with device and address, and signs one out (its refresh refused)', async () => {
    const person = await registerUser(t.app);
    const other = await signInAgain(t, person);
    const listed = (await call(person, 'GET', '/api/account/sessions')).json().data;
    expect(listed).toHaveLength(2);
    expect(listed.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(listed[0]).toMatchObject({ address: expect.any(String), lastSeenAt: expect.any(String) });
    const theirs = listed.find((s: { current: boolean }) => !s.current);
    expect((await call(person, 'DELETE', `/api/account/sessions/${theirs.id}`)).statusCode).toBe(200);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: other.refreshToken },
    });
    expect(refreshed.statusCode).toBe(401);
    expect((await call(other, 'GET', '/api/account')).statusCode).toBe(401);
    expect((await call(person, 'GET', '/api/account/sessions')).json().data).toHaveLength(1);
  });

  it("answers 404 for another person's session", async () => {
    const person = await registerUser(t.app);
    const intruder = await registerUser(t.app);
    const [session] = (await call(person, 'GET', '/api/account/sessions')).json().data;
    expect((await call(intruder, 'DELETE', `/api/account/sessions/${session.id}`)).statusCode).toBe(404);
    expect((await call(intruder, 'DELETE', '/api/account/sessions/not-a-uuid')).statusCode).toBe(400);
    expect((await call(person, 'GET', '/api/account/sessions')).json().data).toHaveLength(1);
  });

  it('a session records the browser it was started in', async () => {
    const person = await registerUser(t.app);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone) Safari' },
      payload: { email: person.user.email, password: person.password },
    });
    expect(signedIn.statusCode).toBe(200);
    const listed = (await call(person, 'GET', '/api/account/sessions')).json().data;
    expect(listed.map((s: { device: string | null }) => s.device)).toContain('Mozilla/5.0 (iPhone) Safari');
  });

  it('a password change asks the current one and ends every other session', async () => {
    const person = await registerUser(t.app);
    const other = await signInAgain(t, person);
    const wrong = await call(person, 'POST', '/api/account/password', {
      currentPassword: 'not-it',
      newPassword: 'N3wPassword!',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('ACCOUNT_PASSWORD_WRONG');
    const weak = await call(person, 'POST', '/api/account/password', {
      currentPassword: person.password,
      newPassword: 'short',
    });
    expect(weak.statusCode).toBe(400);
    const changed = await call(person, 'POST', '/api/account/password', {
      currentPassword: person.password,
      newPassword: 'N3wPassword!',
    });
    expect(changed.statusCode).toBe(200);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: other.refreshToken },
    });
    expect(refreshed.statusCode).toBe(401);
    expect((await call(other, 'GET', '/api/account')).statusCode).toBe(401);
    // The session that changed it goes on, and the new password signs in.
    expect((await call(person, 'GET', '/api/account')).statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: person.user.email, password: 'N3wPassword!' },
    });
    expect(login.statusCode).toBe(200);
  });
});

describe('DELETE /api/account', () => {
  it('asks the password and a fate for every owned workspace, then the address registers again', async () => {
    const owner = await registerOnPlan(t.app, 'pro');
    const kept = await createWorkspace(t, owner, 'Client kept');
    const gone = await createWorkspace(t, owner, 'Client gone');
    const editor = await joinAs(t, owner, kept, 'editor');
    expect((await call(owner, 'DELETE', '/api/account', { password: 'wrong', workspaces: [] })).statusCode).toBe(403);
    const undecided = await call(owner, 'DELETE', '/api/account', {
      password: owner.password,
      workspaces: [{ id: gone, action: 'delete' }],
    });
    expect(undecided.statusCode).toBe(409);
    expect(undecided.json()).toMatchObject({
      code: 'ACCOUNT_WORKSPACE_UNDECIDED',
      params: { workspaces: 'Client kept' },
    });
    const notMember = await call(owner, 'DELETE', '/api/account', {
      password: owner.password,
      workspaces: [
        { id: gone, action: 'delete' },
        { id: kept, action: 'transfer', toUserId: (await registerUser(t.app)).user.id },
      ],
    });
    expect(notMember.statusCode).toBe(409);
    expect(notMember.json().code).toBe('WORKSPACE_RECEIVER_NOT_MEMBER');

    const deleted = await call(owner, 'DELETE', '/api/account', {
      password: owner.password,
      workspaces: [
        { id: gone, action: 'delete' },
        { id: kept, action: 'transfer', toUserId: editor.user.id },
      ],
    });
    expect(deleted.statusCode).toBe(200);
    // Old tokens are refused, the kept workspace is the editor's and under their plan, the other is gone.
    expect((await call(owner, 'GET', '/api/account')).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: owner.refreshToken } }))
        .statusCode,
    ).toBe(401);
    const editorView = (await call(editor, 'GET', '/api/account')).json().data;
    expect(editorView.workspaces.find((w: { id: string }) => w.id === kept)).toMatchObject({
      role: 'owner',
      paidByYou: true,
      members: [],
    });
    const left = (await t.inspect((db) =>
      db.execute(
        sql`select count(*)::int as n from workspaces where id = ${gone} or personal_owner_id = ${owner.user.id}`,
      ),
    )) as unknown as { rows: { n: number }[] };
    expect(left.rows[0]?.n).toBe(0);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Back again', email: owner.user.email, password: 'Sup3rSecret!' },
    });
    expect(again.statusCode).toBe(201);
  });

  it('refuses a fate for a workspace the person does not own', async () => {
    const person = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const theirs = await createWorkspace(t, stranger, 'Not yours');
    const response = await call(person, 'DELETE', '/api/account', {
      password: person.password,
      workspaces: [{ id: theirs, action: 'delete' }],
    });
    expect(response.statusCode).toBe(409);
    expect((await call(stranger, 'GET', '/api/account')).json().data.workspaces).toHaveLength(2);
  });
});
