import { INVITATION_RESENDS_PER_HOUR, INVITATION_TTL_DAYS } from '@adpilot/contracts';
import { workspaceInvitations, workspaceMembers } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/crypto.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { confirmRecipients } from '../../test/report-fixtures.ts';
import {
  acceptWith,
  createWorkspace,
  invitationTokenFor,
  inviteTo,
  joinAs,
  putOnPlan,
  signInAgain,
  workspaceEntries,
} from '../../test/workspace-fixtures.ts';

type Session = Awaited<ReturnType<typeof registerUser>>;
const DAY_MS = 24 * 60 * 60 * 1000;

describe('workspace invitations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, session: Session, payload?: object) =>
    t.app.inject({ method, url, headers: session.auth, ...(payload ? { payload } : {}) });
  const preview = (token: string) =>
    t.app.inject({ method: 'GET', url: `/api/invitations/preview?token=${encodeURIComponent(token)}` });
  const pending = async (workspaceId: string, session: Session) =>
    (
      (await call('GET', `/api/workspaces/${workspaceId}/invitations`, session)).json() as {
        data: { id: string; email: string; role: string; invitedBy: string | null }[];
      }
    ).data;
  const memberIds = async (workspaceId: string) =>
    (
      await t.inspect((db) =>
        db
          .select({ userId: workspaceMembers.userId })
          .from(workspaceMembers)
          .where(eq(workspaceMembers.workspaceId, workspaceId)),
      )
    ).map((row) => row.userId);

  async function ownerOn(plan: 'free' | 'pro' | 'business' | 'enterprise', name = 'Studio') {
    const owner = await registerUser(t.app, { name: 'Irene Inviter' });
    const id = await createWorkspace(t, owner, name);
    if (plan !== 'free') await putOnPlan(t, id, plan);
    return { owner, id };
  }

  it('invites an address: stored hashed, bound to the lower-cased address, a week long, mailed with the link', async () => {
    const { owner, id } = await ownerOn('pro');
    const invitee = `New.Person.${Date.now()}@Example.com`;
    const response = await inviteTo(t, owner, id, invitee, 'editor');
    expect(response.statusCode).toBe(201);
    const body = response.json() as { data: { id: string; expiresAt: string } };
    expect(body.data).toEqual({
      id: expect.any(String),
      email: invitee.toLowerCase(),
      role: 'editor',
      invitedBy: 'Irene Inviter',
      expiresAt: new Date(t.clock.now.getTime() + INVITATION_TTL_DAYS * DAY_MS).toISOString(),
      createdAt: expect.any(String),
      mail: 'sent',
    });
    const token = invitationTokenFor(t, invitee.toLowerCase());
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const mail = t.mailer.sent.at(-1);
    expect(mail?.subject).toBe('AdPilot: invitation to join “Studio” · คำเชิญเข้าร่วม “Studio”');
    expect(mail?.text).toContain(`http://localhost:3000/invitations/accept?token=${token}`);
    expect(mail?.text).toContain('the workspace “Studio”');
    const [stored] = await t.inspect((db) =>
      db.select().from(workspaceInvitations).where(eq(workspaceInvitations.id, body.data.id)),
    );
    expect(stored?.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const { mail: _mail, ...listed } = body.data as typeof body.data & { mail?: string };
    expect(await pending(id, owner)).toEqual([listed]);
    expect((await workspaceEntries(t, id)).at(-1)).toEqual({
      code: 'workspace_member_invited',
      actorUserId: owner.user.id,
      params: { email: invitee.toLowerCase(), role: 'editor' },
    });
  });

  it('previews and accepts: the invited address joins with the invited role, once', async () => {
    const { owner, id } = await ownerOn('pro');
    const invitee = await registerUser(t.app, { name: 'Jo Joiner' });
    expect((await inviteTo(t, owner, id, invitee.user.email, 'viewer')).statusCode).toBe(201);
    const token = invitationTokenFor(t, invitee.user.email);

    const shown = await preview(token);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({
      success: true,
      data: {
        workspaceName: 'Studio',
        personal: false,
        role: 'viewer',
        email: invitee.user.email,
        invitedBy: 'Irene Inviter',
        expiresAt: expect.any(String),
      },
    });

    const accepted = await acceptWith(t, invitee, token);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ success: true, data: { id, name: 'Studio', role: 'viewer', personal: false } });
    const listed = (await call('GET', '/api/workspaces', invitee)).json() as { data: { id: string }[] };
    expect(listed.data.map((w) => w.id)).toContain(id);
    // The new member's next request in that workspace is let through.
    const logs = await t.app.inject({
      method: 'GET',
      url: '/api/logs',
      headers: { ...invitee.auth, 'x-workspace-id': id },
    });
    expect(logs.statusCode).toBe(200);

    const again = await acceptWith(t, invitee, token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'INVITATION_USED' });
    expect((await preview(token)).json()).toMatchObject({ code: 'INVITATION_USED' });
    expect(await pending(id, owner)).toEqual([]);
    expect((await workspaceEntries(t, id)).at(-1)).toEqual({
      code: 'workspace_invitation_accepted',
      actorUserId: invitee.user.id,
      params: { member: 'Jo Joiner', role: 'viewer' },
    });
  });

  it('answers 404 for an unknown link and refuses a signed-out accept', async () => {
    const unknown = await preview('no-such-token');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const signedOut = await t.app.inject({
      method: 'POST',
      url: '/api/invitations/accept',
      payload: { token: 'x' },
    });
    expect(signedOut.statusCode).toBe(401);
    const someone = await registerUser(t.app);
    expect((await acceptWith(t, someone, 'no-such-token')).statusCode).toBe(404);
  });

  it('refuses another address than the invited one', async () => {
    const { owner, id } = await ownerOn('pro');
    const invitee = await registerUser(t.app);
    const other = await registerUser(t.app);
    await inviteTo(t, owner, id, invitee.user.email, 'editor');
    const refused = await acceptWith(t, other, invitationTokenFor(t, invitee.user.email));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'INVITATION_EMAIL_MISMATCH' });
    expect(await memberIds(id)).toEqual([owner.user.id]);
  });

  it('gives one membership to two accepts at once; the other is told the link was used', async () => {
    const { owner, id } = await ownerOn('pro');
    const invitee = await registerUser(t.app);
    await inviteTo(t, owner, id, invitee.user.email, 'editor');
    const token = invitationTokenFor(t, invitee.user.email);
    const answers = await Promise.all([acceptWith(t, invitee, token), acceptWith(t, invitee, token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)?.json()).toMatchObject({ code: 'INVITATION_USED' });
    expect((await memberIds(id)).sort()).toEqual([owner.user.id, invitee.user.id].sort());
  });

  it('keeps seat-taking members plus pending invitations within the plan’s seats, under parallel invitations too', async () => {
    // Free: one seat, the owner's.
    const free = await ownerOn('free');
    const refused = await inviteTo(t, free.owner, free.id, `solo-${Date.now()}@example.com`, 'editor');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      success: false,
      code: 'SEAT_LIMIT_REACHED',
      params: { plan: 'free', limit: 1 },
    });
    // A viewer takes no seat (ADR 0111): a client looks for free.
    expect((await inviteTo(t, free.owner, free.id, `client-${Date.now()}@example.com`, 'viewer')).statusCode).toBe(201);

    // Pro: three seats, the owner's and two more; five invitations at once give exactly two.
    const { owner, id } = await ownerOn('pro');
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        inviteTo(t, owner, id, `seat-${i}-${Date.now()}@example.com`, i % 2 ? 'admin' : 'editor'),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 403, 403, 403]);
    for (const answer of answers.filter((a) => a.statusCode === 403)) {
      expect(answer.json()).toMatchObject({ code: 'SEAT_LIMIT_REACHED', params: { plan: 'pro', limit: 3 } });
    }
    expect(await pending(id, owner)).toHaveLength(2);

    // A withdrawn invitation gives its seat back; an expired one too.
    const [first] = await pending(id, owner);
    expect((await call('DELETE', `/api/workspaces/${id}/invitations/${first?.id}`, owner)).statusCode).toBe(200);
    expect((await inviteTo(t, owner, id, `seat-again-${Date.now()}@example.com`, 'editor')).statusCode).toBe(201);
    expect((await inviteTo(t, owner, id, `seat-full-${Date.now()}@example.com`, 'editor')).statusCode).toBe(403);

    // Enterprise: unlimited.
    await putOnPlan(t, id, 'enterprise');
    expect((await inviteTo(t, owner, id, `seat-many-${Date.now()}@example.com`, 'editor')).statusCode).toBe(201);
  });

  it('refuses a member’s address or a second pending invitation for the same address', async () => {
    const { owner, id } = await ownerOn('business');
    const member = await joinAs(t, owner, id, 'editor');
    const already = await inviteTo(t, owner, id, member.user.email.toUpperCase(), 'viewer');
    expect(already.statusCode).toBe(409);
    expect(already.json()).toMatchObject({ code: 'WORKSPACE_ALREADY_MEMBER' });
    const address = `twice-${Date.now()}@example.com`;
    expect((await inviteTo(t, owner, id, address, 'viewer')).statusCode).toBe(201);
    expect((await inviteTo(t, owner, id, address, 'editor')).json()).toMatchObject({
      code: 'WORKSPACE_ALREADY_MEMBER',
    });
  });

  it('lets admins invite, not editors or viewers; only owners invite an owner', async () => {
    const { owner, id } = await ownerOn('business');
    const admin = await joinAs(t, owner, id, 'admin');
    const editor = await joinAs(t, owner, id, 'editor');
    const byEditor = await inviteTo(t, editor, id, `e-${Date.now()}@example.com`, 'viewer');
    expect(byEditor.statusCode).toBe(403);
    expect(byEditor.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This needs an admin of this workspace (or higher)',
    });
    expect((await call('GET', `/api/workspaces/${id}/invitations`, editor)).statusCode).toBe(403);
    const ownerByAdmin = await inviteTo(t, admin, id, `o-${Date.now()}@example.com`, 'owner');
    expect(ownerByAdmin.statusCode).toBe(403);
    expect(ownerByAdmin.json()).toMatchObject({ message: 'This needs an owner of this workspace (or higher)' });
    expect((await inviteTo(t, admin, id, `a-${Date.now()}@example.com`, 'admin')).statusCode).toBe(201);
    expect((await inviteTo(t, owner, id, `o2-${Date.now()}@example.com`, 'owner')).statusCode).toBe(201);
  });

  it('refuses an expired link (preview and accept), and a withdrawn one', async () => {
    const { owner, id } = await ownerOn('business');
    const late = await registerUser(t.app);
    const gone = await registerUser(t.app);
    await inviteTo(t, owner, id, late.user.email, 'viewer');
    await inviteTo(t, owner, id, gone.user.email, 'viewer');
    const lateToken = invitationTokenFor(t, late.user.email);
    const goneToken = invitationTokenFor(t, gone.user.email);

    const withdrawn = (await pending(id, owner)).find((i) => i.email === gone.user.email);
    expect((await call('DELETE', `/api/workspaces/${id}/invitations/${withdrawn?.id}`, owner)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/workspaces/${id}/invitations/${withdrawn?.id}`, owner)).statusCode).toBe(404);
    expect((await preview(goneToken)).json()).toMatchObject({ code: 'INVITATION_REVOKED' });
    expect((await acceptWith(t, gone, goneToken)).json()).toMatchObject({ code: 'INVITATION_REVOKED' });

    t.clock.advance(INVITATION_TTL_DAYS * DAY_MS + 1000);
    const [ownerNow, lateNow] = [await signInAgain(t, owner), await signInAgain(t, late)];
    const expired = await preview(lateToken);
    expect(expired.statusCode).toBe(409);
    expect(expired.json()).toMatchObject({ code: 'INVITATION_EXPIRED' });
    expect((await acceptWith(t, lateNow, lateToken)).json()).toMatchObject({ code: 'INVITATION_EXPIRED' });
    expect(await pending(id, ownerNow)).toEqual([]);
    expect(await memberIds(id)).toEqual([owner.user.id]);
  });

  it('re-sends with a new link and a new week, the old link dead, at most five times an hour', async () => {
    const started = await ownerOn('pro');
    const { id } = started;
    let owner = started.owner;
    const invitee = await registerUser(t.app);
    const made = (await inviteTo(t, owner, id, invitee.user.email, 'editor')).json() as { data: { id: string } };
    const firstToken = invitationTokenFor(t, invitee.user.email);
    // The address answered the workspace's first mail: re-sends may reach it (ADR 0092).
    await confirmRecipients(t, id, [invitee.user.email]);
    const resend = () => call('POST', `/api/workspaces/${id}/invitations/${made.data.id}/resend`, owner);

    t.clock.advance(DAY_MS);
    owner = await signInAgain(t, owner);
    const resent = await resend();
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({
      data: {
        id: made.data.id,
        expiresAt: new Date(t.clock.now.getTime() + INVITATION_TTL_DAYS * DAY_MS).toISOString(),
      },
    });
    const secondToken = invitationTokenFor(t, invitee.user.email);
    expect(secondToken).not.toBe(firstToken);
    expect((await preview(firstToken)).statusCode).toBe(404);
    expect((await preview(secondToken)).statusCode).toBe(200);

    for (let i = 1; i < INVITATION_RESENDS_PER_HOUR; i += 1) expect((await resend()).statusCode).toBe(200);
    const sent = t.mailer.sent.length;
    const limited = await resend();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.headers['retry-after']).toBeDefined();
    expect(t.mailer.sent.length).toBe(sent);

    // An hour later it may be sent again, even after it expired (it takes its seat back).
    t.clock.advance(INVITATION_TTL_DAYS * DAY_MS);
    owner = await signInAgain(t, owner);
    expect((await preview(invitationTokenFor(t, invitee.user.email))).json()).toMatchObject({
      code: 'INVITATION_EXPIRED',
    });
    expect((await resend()).statusCode).toBe(200);
    const accepted = await acceptWith(t, await signInAgain(t, invitee), invitationTokenFor(t, invitee.user.email));
    expect(accepted.statusCode).toBe(200);
  });

  it('refuses to re-send or withdraw for an editor, or for another workspace’s invitation', async () => {
    const { owner, id } = await ownerOn('business');
    const editor = await joinAs(t, owner, id, 'editor');
    const made = (await inviteTo(t, owner, id, `r-${Date.now()}@example.com`, 'viewer')).json() as {
      data: { id: string };
    };
    expect((await call('POST', `/api/workspaces/${id}/invitations/${made.data.id}/resend`, editor)).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `/api/workspaces/${id}/invitations/${made.data.id}`, editor)).statusCode).toBe(403);
    const other = await ownerOn('pro', 'Elsewhere');
    expect(
      (await call('POST', `/api/workspaces/${other.id}/invitations/${made.data.id}/resend`, other.owner)).statusCode,
    ).toBe(404);
    expect(
      (await call('DELETE', `/api/workspaces/${other.id}/invitations/${made.data.id}`, other.owner)).statusCode,
    ).toBe(404);
    expect(await pending(id, owner)).toHaveLength(1);
  });

  it('lets only an owner withdraw an invitation to be an owner, as only an owner makes or re-sends one', async () => {
    const { owner, id } = await ownerOn('business');
    const admin = await joinAs(t, owner, id, 'admin');
    const toOwner = (await inviteTo(t, owner, id, `o-${Date.now()}@example.com`, 'owner')).json() as {
      data: { id: string };
    };
    const toEditor = (await inviteTo(t, owner, id, `e-${Date.now()}@example.com`, 'editor')).json() as {
      data: { id: string };
    };
    const refused = await call('DELETE', `/api/workspaces/${id}/invitations/${toOwner.data.id}`, admin);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, code: 'FORBIDDEN' });
    expect((await pending(id, owner)).map((invitation) => invitation.id)).toContain(toOwner.data.id);
    expect((await call('DELETE', `/api/workspaces/${id}/invitations/${toEditor.data.id}`, admin)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/workspaces/${id}/invitations/${toOwner.data.id}`, owner)).statusCode).toBe(200);
    expect(await pending(id, owner)).toHaveLength(0);
  });
});
