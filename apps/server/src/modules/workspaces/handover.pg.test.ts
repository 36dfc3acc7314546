import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerOnPlan, registerUser, type TestApp } from '../../test/test-app.ts';
import { acceptWith, createWorkspace, invitationTokenFor, inviteTo, joinAs } from '../../test/workspace-fixtures.ts';

/**
 * Handing a workspace over (issue 31): the owner offers it to a member, who accepts; it moves under the receiver's
 * plan if it fits (refused naming the limit otherwise), judged under row locks so parallel accepts never pass a
 * limit together and one offer is taken once.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Session = Awaited<ReturnType<typeof registerUser>>;

const offer = (by: Session, workspaceId: string, toUserId: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/workspaces/${workspaceId}/transfer`,
    headers: by.auth,
    payload: { toUserId },
  });
const accept = (by: Session, transferId: string) =>
  t.app.inject({ method: 'POST', url: `/api/workspaces/transfers/${transferId}/accept`, headers: by.auth });

/** Adds an existing person to a workspace through an invitation. */
async function addMember(owner: Session, workspaceId: string, member: Session, role: 'editor' | 'viewer') {
  expect((await inviteTo(t, owner, workspaceId, member.user.email, role)).statusCode).toBe(201);
  expect((await acceptWith(t, member, invitationTokenFor(t, member.user.email))).statusCode).toBe(200);
}

const poolOf = async (session: Session) => {
  const response = await t.app.inject({ method: 'GET', url: '/api/subscription/current', headers: session.auth });
  return response.json().data as { workspaces: { id: string }[]; pool: { used: { seats: number } } };
};

describe('a handover that fits', () => {
  it('moves the workspace under the receiver, who becomes its owner and payer', async () => {
    const giver = await registerOnPlan(t.app, 'pro');
    const receiver = await registerOnPlan(t.app, 'pro');
    const client = await createWorkspace(t, giver, 'Client handed');
    await addMember(giver, client, receiver, 'editor');
    const offered = await offer(giver, client, receiver.user.id);
    expect(offered.statusCode).toBe(201);
    const transfer = offered.json().data;
    expect(transfer).toMatchObject({ workspaceId: client, workspaceName: 'Client handed', toUserId: receiver.user.id });
    const waiting = await t.app.inject({ method: 'GET', url: '/api/workspaces/transfers', headers: receiver.auth });
    expect(waiting.json().data).toEqual([expect.objectContaining({ id: transfer.id, fromName: giver.user.name })]);

    expect((await accept(giver, transfer.id)).statusCode).toBe(404);
    const accepted = await accept(receiver, transfer.id);
    expect(accepted.statusCode).toBe(200);
    expect((await poolOf(receiver)).workspaces.map((w) => w.id)).toContain(client);
    expect((await poolOf(giver)).workspaces.map((w) => w.id)).not.toContain(client);
    const members = await t.app.inject({
      method: 'GET',
      url: `/api/workspaces/${client}/members`,
      headers: giver.auth,
    });
    const roles = Object.fromEntries(
      members.json().data.map((m: { userId: string; role: string }) => [m.userId, m.role]),
    );
    expect(roles).toEqual({ [giver.user.id]: 'admin', [receiver.user.id]: 'owner' });
    expect((await accept(receiver, transfer.id)).statusCode).toBe(404);
  });

  it('only the owner offers, only to a member, never a personal workspace', async () => {
    const owner = await registerOnPlan(t.app, 'pro');
    const client = await createWorkspace(t, owner, 'Client');
    const editor = await joinAs(t, owner, client, 'editor');
    const stranger = await registerUser(t.app);
    expect((await offer(editor, client, owner.user.id)).statusCode).toBe(403);
    expect((await offer(stranger, client, owner.user.id)).statusCode).toBe(404);
    const outsider = await offer(owner, client, stranger.user.id);
    expect(outsider.statusCode).toBe(409);
    expect(outsider.json().code).toBe('WORKSPACE_RECEIVER_NOT_MEMBER');
    expect((await offer(owner, owner.workspaceId, editor.user.id)).statusCode).toBe(409);
    expect((await offer(owner, client, owner.user.id)).statusCode).toBe(400);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${client}/transfer`,
      headers: owner.auth,
      payload: { toUserId: 'nobody' },
    });
    expect(bad.statusCode).toBe(400);
    expect((await accept(editor, 'not-a-uuid')).statusCode).toBe(400);
  });
});

describe('a handover that does not fit', () => {
  it('is refused with the limit named, and changes nothing', async () => {
    const giver = await registerOnPlan(t.app, 'pro');
    const receiver = await registerUser(t.app);
    const client = await createWorkspace(t, giver, 'Too big');
    await addMember(giver, client, receiver, 'editor');
    const transfer = (await offer(giver, client, receiver.user.id)).json().data;
    const refused = await accept(receiver, transfer.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'WORKSPACE_TRANSFER_DOES_NOT_FIT',
      params: { plan: 'free', limit: 1, figure: 'seats' },
    });
    expect((await poolOf(giver)).workspaces.map((w) => w.id)).toContain(client);
    // The offer stays open: once the receiver's plan has room, it can be taken.
    const waiting = await t.app.inject({ method: 'GET', url: '/api/workspaces/transfers', headers: receiver.auth });
    expect(waiting.json().data).toHaveLength(1);
  });
});

describe('parallel handovers', () => {
  it('two into one plan at once: exactly the one that fits is taken', async () => {
    const receiver = await registerOnPlan(t.app, 'pro');
    const offers: string[] = [];
    for (const name of ['Agency A', 'Agency B']) {
      const giver = await registerOnPlan(t.app, 'pro');
      const client = await createWorkspace(t, giver, name);
      await joinAs(t, giver, client, 'editor');
      await addMember(giver, client, receiver, 'editor');
      offers.push((await offer(giver, client, receiver.user.id)).json().data.id);
    }
    const answers = await Promise.all(offers.map((id) => accept(receiver, id)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    // Pro's three seats: the receiver, the giver and the editor of the one workspace taken.
    const pool = await poolOf(receiver);
    expect(pool.workspaces).toHaveLength(2);
    expect(pool.pool.used.seats).toBe(3);
  });

  it('one offer accepted twice at once is taken once', async () => {
    const giver = await registerOnPlan(t.app, 'pro');
    const receiver = await registerOnPlan(t.app, 'pro');
    const client = await createWorkspace(t, giver, 'Twice');
    await addMember(giver, client, receiver, 'editor');
    const transfer = (await offer(giver, client, receiver.user.id)).json().data;
    const answers = await Promise.all([accept(receiver, transfer.id), accept(receiver, transfer.id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
  });
});
