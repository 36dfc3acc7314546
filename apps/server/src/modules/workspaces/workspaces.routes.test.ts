import { users, workspaceMembers, workspaces } from '@adpilot/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

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
