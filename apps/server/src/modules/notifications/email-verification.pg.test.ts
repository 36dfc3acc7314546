import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { activityLogs, type TenantScope } from '@adpilot/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { NotificationsRepository } from './notifications.repository.ts';

type Session = Awaited<ReturnType<typeof registerUser>>;

const SCAN = { overlapSeconds: 300, lookbackSeconds: 6 * 3600, limit: 2000 };

describe('e-mail address verification before notification mail (ADR 0054)', () => {
  let t: TestApp;
  const repository = new NotificationsRepository();
  const hits: string[] = [];
  const receiver = http.createServer((request, response) => {
    hits.push(request.url ?? '');
    request.resume();
    request.on('end', () => response.end('ok'));
  });
  let hookBase = '';

  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    t = await createTestApp({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1' });
  }, 60_000);

  afterAll(async () => {
    await t.close();
    receiver.close();
  });

  const mailsTo = (email: string) => t.mailer.sent.filter((mail) => mail.to === email);

  function put(session: Session, payload: object) {
    return t.app.inject({ method: 'PUT', url: '/api/notifications', headers: session.auth, payload });
  }

  function settingsOf(session: Session) {
    return t.app.inject({ method: 'GET', url: '/api/notifications', headers: session.auth });
  }

  function confirm(token: string) {
    return t.app.inject({ method: 'POST', url: '/api/email-verification/confirm', payload: { token } });
  }

  function resend(session: Session) {
    return t.app.inject({ method: 'POST', url: '/api/notifications/email/verification', headers: session.auth });
  }

  function testSend(session: Session, channel: 'email' | 'webhook') {
    return t.app.inject({
      method: 'POST',
      url: '/api/notifications/test',
      headers: session.auth,
      payload: { channel },
    });
  }

  /** The token of the newest confirmation link mailed to `email`. */
  function tokenFor(email: string): string {
    const mail = mailsTo(email)
      .filter((m) => m.subject === 'Confirm your address for AdPilot notifications')
      .at(-1);
    const match = /\/verify-email\?token=(\S+)/.exec(mail?.text ?? '');
    if (!match) throw new Error(`no confirmation link was mailed to ${email}`);
    return decodeURIComponent(match[1]!);
  }

  /** Which of the entries of the user's workspace the notifier would e-mail the user at once now (a nudge's scan). */
  async function dueByEmail(scope: TenantScope): Promise<string[]> {
    const due = await t.database.system('test scan', (tx) => repository.scanDue(tx, SCAN, scope.workspaceId));
    return due.filter((entry) => entry.toEmail && entry.userId === scope.userId).map((entry) => entry.id);
  }

  async function writeError(scope: TenantScope, description: string): Promise<string> {
    const [row] = await t.database.tenant(scope, (tx) =>
      tx.db
        .insert(activityLogs)
        .values({ workspaceId: scope.workspaceId, level: 'error', category: 'sync', description })
        .returning({ id: activityLogs.id }),
    );
    return row!.id;
  }

  it('relays nothing for an unconfirmed address: the abuse of the review ends with one fixed confirmation mail', async () => {
    const session = await registerUser(t.app, { name: 'Buy cheap pills at evil.example' });
    const email = session.user.email;
    const saved = await put(session, { emailErrors: true });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ emailErrors: true, emailVerified: false });
    expect(saved.json().data.verificationSentAt).toEqual(expect.any(String));

    const notes = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/logs',
          headers: session.auth,
          payload: { level: 'error', description: 'Visit http://evil.example now' },
        }),
      ),
    );
    expect(notes.every((response) => response.statusCode === 201 || response.statusCode === 200)).toBe(true);
    const tests = await Promise.all(Array.from({ length: 30 }, () => testSend(session, 'email')));
    expect(tests.map((response) => response.statusCode)).toEqual(Array(30).fill(409));
    expect(tests[0]!.json().code).toBe('EMAIL_NOT_VERIFIED');
    const errorId = await writeError(session.scope, 'Token expired for Shop');
    // A rule's notify action, and a day of rule actions for the digest, wait for the address as well.
    await put(session, { emailDigest: true, timeZone: 'UTC', digestHour: 0 });
    const [notify] = await t.database.tenant(session.scope, (tx) =>
      tx.db
        .insert(activityLogs)
        .values({
          workspaceId: session.workspaceId,
          level: 'success',
          category: 'rule_action',
          description: 'Rule "Fatigue" applied notify on ad "A1"',
          metadata: { code: 'rule_action_applied', action: 'notify' },
          createdAt: new Date(Date.now() - 86_400_000),
        })
        .returning({ id: activityLogs.id }),
    );
    expect(await dueByEmail(session.scope)).toEqual([]);
    await t.modules.notifications.dispatcher.deliverEmail(session.scope, errorId);
    await t.modules.notifications.dispatcher.deliverEmail(session.scope, notify!.id);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(await t.modules.notifications.dispatcher.sendDigest(session.scope, yesterday)).toBe(false);

    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Confirm your address for AdPilot notifications');
    expect(mails[0]!.text).not.toContain('evil');
    expect(mails[0]!.text).not.toContain('pills');
  });

  it('sends one confirmation while a link is live, however often e-mail is turned on', async () => {
    const session = await registerUser(t.app);
    await put(session, { emailErrors: true });
    await put(session, { emailErrors: false, emailDigest: false });
    await put(session, { emailDigest: true });
    await put(session, { emailErrors: true, language: 'th' });
    expect(mailsTo(session.user.email)).toHaveLength(1);
    // The link is worded in the notification language chosen with it.
    const thai = await registerUser(t.app);
    await put(thai, { emailDigest: true, language: 'th' });
    const [mail] = mailsTo(thai.user.email);
    expect(mail!.subject).toBe('ยืนยันอีเมลของคุณสำหรับการแจ้งเตือนจาก AdPilot');
    expect(mail!.text).toContain('/verify-email?token=');
    // The webhook alone never asks for the address.
    const other = await registerUser(t.app);
    await put(other, { webhookUrl: `${hookBase}/only-hook` });
    expect(mailsTo(other.user.email)).toHaveLength(0);
  });

  it('confirms once, and from then on error mail flows (nothing from before the confirmation)', async () => {
    const session = await registerUser(t.app);
    await put(session, { emailErrors: true });
    const before = await writeError(session.scope, 'Failure before confirming');
    const token = tokenFor(session.user.email);

    const confirmed = await confirm(token);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().data.message).toBe(
      'Your e-mail address is confirmed. AdPilot can now send your notifications to it.',
    );
    expect((await settingsOf(session)).json().data).toMatchObject({ emailVerified: true, verificationSentAt: null });
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'INVALID_STATE',
      message: 'This confirmation link is invalid or has expired.',
    });

    const after = await writeError(session.scope, 'Failure after confirming');
    expect(await dueByEmail(session.scope)).toEqual([after]);
    expect(before).not.toBe(after);
    await t.modules.notifications.dispatcher.deliverEmail(session.scope, after);
    expect(mailsTo(session.user.email).at(-1)!.subject).toBe('AdPilot: Error: Failure after confirming');
    // A verified address takes a test mail; there is nothing left to confirm.
    expect((await testSend(session, 'email')).json().data).toMatchObject({ channel: 'email', delivered: true });
    expect((await resend(session)).statusCode).toBe(409);
  });

  it('takes a link once under parallel use: exactly one confirmation succeeds', async () => {
    const session = await registerUser(t.app);
    await put(session, { emailDigest: true });
    const token = tokenFor(session.user.email);
    const answers = await Promise.all(Array.from({ length: 8 }, () => confirm(token)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 400)).toHaveLength(7);
  });

  it('refuses a link after 24 hours, and a made-up one', async () => {
    const session = await registerUser(t.app);
    await put(session, { emailErrors: true });
    const token = tokenFor(session.user.email);
    t.clock.advance(24 * 3600 * 1000 + 1000);
    try {
      expect((await confirm(token)).statusCode).toBe(400);
      // The expired link no longer counts as sent: the dialog offers to send a new one (signed in a day later).
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: session.user.email, password: session.password },
      });
      const later = { ...session, auth: { authorization: `Bearer ${login.json().data.token}` } };
      expect((await settingsOf(later)).json().data).toMatchObject({ emailVerified: false, verificationSentAt: null });
    } finally {
      t.clock.advance(-(24 * 3600 * 1000 + 1000));
    }
    expect((await confirm('not-a-token')).statusCode).toBe(400);
    expect((await settingsOf(session)).json().data.emailVerified).toBe(false);
  });

  it('binds a link to the address it was sent to, and a verified address stops counting once it changes', async () => {
    const session = await registerUser(t.app);
    await put(session, { emailErrors: true });
    const token = tokenFor(session.user.email);
    const changed = `changed-${session.user.email}`;
    await t.inspect((db) => db.execute(sql`update users set email = ${changed} where id = ${session.user.id}`));
    expect((await confirm(token)).statusCode).toBe(400);
    expect((await settingsOf(session)).json().data).toMatchObject({ email: changed, emailVerified: false });

    await t.inspect((db) =>
      db.execute(sql`update users set email = ${session.user.email} where id = ${session.user.id}`),
    );
    expect((await resend(session)).statusCode).toBe(200);
    expect((await confirm(tokenFor(session.user.email))).statusCode).toBe(200);
    expect((await settingsOf(session)).json().data.emailVerified).toBe(true);
    await t.inspect((db) => db.execute(sql`update users set email = ${changed} where id = ${session.user.id}`));
    expect((await settingsOf(session)).json().data.emailVerified).toBe(false);
    const errorId = await writeError(session.scope, 'Failure after the address changed');
    expect(await dueByEmail(session.scope)).toEqual([]);
    await t.modules.notifications.dispatcher.deliverEmail(session.scope, errorId);
    expect(mailsTo(changed).filter((mail) => mail.subject.startsWith('AdPilot: Error'))).toHaveLength(0);
  });

  it('limits confirmation mails to 5 an hour per user under parallel requests', async () => {
    const session = await registerUser(t.app);
    const answers = await Promise.all(Array.from({ length: 9 }, () => resend(session)));
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(5);
    expect(codes.filter((code) => code === 429)).toHaveLength(4);
    const refused = answers.find((answer) => answer.statusCode === 429)!;
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(mailsTo(session.user.email)).toHaveLength(5);
    // Another user's budget is their own.
    const other = await registerUser(t.app);
    expect((await resend(other)).statusCode).toBe(200);
  });

  it('limits test sends to 5 an hour per user and channel under parallel requests', async () => {
    const session = await registerUser(t.app);
    await t.inspect((db) =>
      db.execute(sql`update users set verified_email = email, email_verified_at = now() where id = ${session.user.id}`),
    );
    const path = `/hook/limits-${session.user.id}`;
    await put(session, { webhookUrl: `${hookBase}${path}` });
    const [emails, hooks] = await Promise.all([
      Promise.all(Array.from({ length: 9 }, () => testSend(session, 'email'))),
      Promise.all(Array.from({ length: 9 }, () => testSend(session, 'webhook'))),
    ]);
    for (const answers of [emails, hooks]) {
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(5);
      expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(4);
    }
    expect(mailsTo(session.user.email).filter((mail) => mail.subject === 'AdPilot test notification')).toHaveLength(5);
    expect(hits.filter((hit) => hit === path)).toHaveLength(5);
  });

  it("never e-mails the user's own notes, at once or in the digest, while the webhook still gets them", async () => {
    const session = await registerUser(t.app);
    await t.inspect((db) =>
      db.execute(sql`update users set verified_email = email, email_verified_at = now() where id = ${session.user.id}`),
    );
    await put(session, { emailErrors: true, emailDigest: true, webhookUrl: `${hookBase}/notes` });
    const note = await t.app.inject({
      method: 'POST',
      url: '/api/logs',
      headers: session.auth,
      payload: { level: 'error', description: 'My own reminder' },
    });
    const noteId = note.json().data._id as string;
    const due = await t.database.system('test scan', (tx) => repository.scanDue(tx, SCAN, session.workspaceId));
    expect(due).toEqual([
      {
        id: noteId,
        userId: session.user.id,
        workspaceId: session.workspaceId,
        toEmail: false,
        toWebhook: true,
        toLine: false,
      },
    ]);
    await t.modules.notifications.dispatcher.deliverEmail(session.scope, noteId);
    const today = new Date().toISOString().slice(0, 10);
    expect(await t.modules.notifications.dispatcher.sendDigest(session.scope, today)).toBe(false);
    expect(mailsTo(session.user.email)).toHaveLength(0);
  });
});
