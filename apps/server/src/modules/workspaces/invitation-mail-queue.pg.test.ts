import { workspaceInvitations } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail, Mailer } from '../../providers/mail/mailer.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { acceptWith, createWorkspace, inviteTo, putOnPlan } from '../../test/workspace-fixtures.ts';
import { INVITATION_MAIL_JOB, type QueuedInvitationMail } from './invitation-mailer.ts';

/** A mail server that can be down: while it is, every send throws as nodemailer does when it cannot connect. */
class SwitchableMailer implements Mailer {
  readonly kind = 'smtp';
  readonly sent: Mail[] = [];
  down = false;
  refusals = 0;
  async send(mail: Mail): Promise<void> {
    if (this.down) {
      this.refusals += 1;
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ESOCKET' });
    }
    this.sent.push(mail);
  }
}

type Session = Awaited<ReturnType<typeof registerUser>>;

describe('an invitation while the mail server is down (ADR 0098)', () => {
  const mailer = new SwitchableMailer();
  let t: TestApp;
  let owner: Session;
  let workspaceId: string;

  beforeAll(async () => {
    t = await createTestApp({}, { mailer, jobQueue: { pollingIntervalSeconds: 0.5 }, invitationMailRetrySeconds: 1 });
    await t.ctx.jobs.start({ work: true });
    owner = await registerUser(t.app, { name: 'Irene Inviter' });
    workspaceId = await createWorkspace(t, owner, 'Studio');
    await putOnPlan(t, workspaceId, 'business');
  }, 60_000);
  afterAll(async () => {
    await t.ctx.jobs.stop();
    await t.close();
  }, 60_000);

  const mailsTo = (email: string) => mailer.sent.filter((mail) => mail.to === email);
  const tokenIn = (mail: Mail | undefined) => {
    const match = mail ? /\/invitations\/accept\?token=(\S+)/.exec(mail.text) : null;
    if (!match?.[1]) throw new Error('no invitation link in the mail');
    return decodeURIComponent(match[1]);
  };
  const stored = async (id: string) =>
    (await t.inspect((db) => db.select().from(workspaceInvitations).where(eq(workspaceInvitations.id, id))))[0];

  /** Waits, up to a bound, until no invitation mail job is waiting, retrying or running. */
  async function settled(timeoutMs = 30_000) {
    const until = Date.now() + timeoutMs;
    while ((await t.ctx.jobs.backlog([INVITATION_MAIL_JOB])) > 0) {
      if (Date.now() > until) throw new Error('the invitation mail jobs did not settle');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Invites `email` with the mail server down: the answer, and the job's payload as it was queued. */
  async function inviteWhileDown(email: string) {
    mailer.down = true;
    const response = await inviteTo(t, owner, workspaceId, email, 'editor');
    const id = response.json().data.id as string;
    const row = await stored(id);
    const job: QueuedInvitationMail = {
      workspaceId,
      invitationId: id,
      senderId: owner.user.id,
      tokenHash: row!.tokenHash,
    };
    return { response, id, job };
  }

  it('answers 201 "queued", keeps the invitation, and the job sends its mail once the server is back', async () => {
    const email = `queued.${Date.now()}@example.com`;
    const refusedBefore = mailer.refusals;
    const { response, id } = await inviteWhileDown(email);
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ id, email, role: 'editor', mail: 'queued' });
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/workspaces/${workspaceId}/invitations`,
      headers: owner.auth,
    });
    expect(listed.json().data.map((row: { id: string }) => row.id)).toContain(id);

    // Still down: the job is tried again, and nothing goes out.
    const until = Date.now() + 20_000;
    while (mailer.refusals < refusedBefore + 3) {
      if (Date.now() > until) throw new Error('the job was not tried again');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(mailsTo(email)).toEqual([]);

    mailer.down = false;
    await settled();
    const [mail] = mailsTo(email);
    expect(mailsTo(email)).toHaveLength(1);
    expect(mail?.subject).toBe('AdPilot: invitation to join “Studio” · คำเชิญเข้าร่วม “Studio”');
    expect(mail?.text).toContain('“Irene Inviter” invited you');
    expect(mail?.headers?.['List-Unsubscribe']).toMatch(/^<http/);
    const invitee = await registerUser(t.app, { email });
    const accepted = await acceptWith(t, invitee, tokenIn(mail));
    expect(accepted.statusCode).toBe(200);
  });

  it('sends a queued mail at most once: a second run and parallel runs of the same job send nothing more', async () => {
    const email = `once.${Date.now()}@example.com`;
    const { job } = await inviteWhileDown(email);
    mailer.down = false;
    await settled();
    expect(mailsTo(email)).toHaveLength(1);

    await t.ctx.jobs.send(INVITATION_MAIL_JOB, job);
    await settled();
    const runs = Array.from({ length: 5 }, () => t.modules.workspaces.invitationMailer.sendQueued(job));
    await Promise.all(runs);
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('sends one mail when five runs of the job race the queue’s own', async () => {
    const email = `parallel.${Date.now()}@example.com`;
    const { job } = await inviteWhileDown(email);
    mailer.down = false;
    await Promise.all(Array.from({ length: 5 }, () => t.modules.workspaces.invitationMailer.sendQueued(job)));
    await settled();
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('sends nothing for an invitation withdrawn while its mail waited, and a re-sent one’s newest link once', async () => {
    const withdrawnTo = `withdrawn.${Date.now()}@example.com`;
    const resentTo = `resent.${Date.now()}@example.com`;
    const withdrawn = await inviteWhileDown(withdrawnTo);
    const resent = await inviteWhileDown(resentTo);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/workspaces/${workspaceId}/invitations/${withdrawn.id}`,
      headers: owner.auth,
    });
    expect(revoked.statusCode).toBe(200);
    // Re-sent while the server is still down: queued too, beside the first link's job, which then has nothing to do.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${workspaceId}/invitations/${resent.id}/resend`,
      headers: owner.auth,
    });
    expect(again.json().data).toMatchObject({ mail: 'queued' });
    mailer.down = false;
    await settled();
    expect(mailsTo(withdrawnTo)).toEqual([]);
    expect(mailsTo(resentTo)).toHaveLength(1);
    const invitee = await registerUser(t.app, { email: resentTo });
    expect((await acceptWith(t, invitee, tokenIn(mailsTo(resentTo)[0]))).statusCode).toBe(200);
  });
});
