import { mailOutbox, mailOutboxAttachments, users } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxMailer } from '../../providers/mail/mailer.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

describe('admin outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const inAnHour = () => new Date(t.clock.now.getTime() + 3_600_000);

  it('shows the admin the mail the outbox holds, and refuses everyone else', async () => {
    // Tests of this file run in any order, so which user registered first is unknown: make the admin explicitly.
    const admin = await registerUser(t.app);
    const member = await registerUser(t.app);
    await t.inspect((db) => db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.user.id)));
    await t.inspect((db) => db.update(users).set({ role: 'user' }).where(eq(users.id, member.user.id)));
    const expiresAt = inAnHour();
    await new OutboxMailer(t.mailOutbox, pino({ level: 'silent' })).send({
      to: member.user.email,
      subject: 'Reset your AdPilot password',
      text: 'link: /reset-password?token=abc',
      expiresAt,
    });

    const response = await t.app.inject({ method: 'GET', url: '/api/admin/outbox', headers: admin.auth });
    expect(response.statusCode).toBe(200);
    expect(response.json().data[0]).toMatchObject({
      to: member.user.email,
      subject: 'Reset your AdPilot password',
      text: expect.stringContaining('token=abc'),
      expiresAt: expiresAt.toISOString(),
    });

    const refused = await t.app.inject({ method: 'GET', url: '/api/admin/outbox', headers: member.auth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('FORBIDDEN');
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/outbox' })).statusCode).toBe(401);
  });

  it('keeps bodies sealed at rest: the stored row holds no link, the admin reads it opened', async () => {
    const secret = 'sealed-at-rest-token-123';
    await t.mailOutbox.store({
      to: 'sealed@example.com',
      subject: 'Reset your AdPilot password',
      text: `Open https://adpilot.example/reset-password?token=${secret}`,
      expiresAt: inAnHour(),
    });
    const rows = await t.inspect((db) => db.select().from(mailOutbox));
    const row = rows.find((candidate) => candidate.toAddress === 'sealed@example.com');
    expect(row?.sealedBody).toMatch(/^v1\./);
    expect(JSON.stringify(rows)).not.toContain(secret);

    const mail = (await t.modules.admin.service.recentOutboxMail(50)).find(
      (candidate) => candidate.to === 'sealed@example.com',
    );
    expect(mail?.text).toBe(`Open https://adpilot.example/reset-password?token=${secret}`);
  });

  it('lists what each mail carried attached, keeps the bytes sealed and deletes them with the mail', async () => {
    const pdf = Buffer.from('%PDF-1.4 attached-report-bytes');
    await t.mailOutbox.store({
      to: 'client@example.com',
      subject: 'Weekly report',
      text: 'See the attached report.',
      expiresAt: inAnHour(),
      attachments: [
        { fileName: 'adpilot-report-2026-11-22.pdf', contentType: 'application/pdf', content: pdf },
        { fileName: 'notes.txt', contentType: 'text/plain', content: Buffer.from('hi') },
      ],
    });
    await t.mailOutbox.store({ to: 'plain@example.com', subject: 'Plain', text: 'x', expiresAt: inAnHour() });

    const mails = await t.modules.admin.service.recentOutboxMail(50);
    expect(mails.find((mail) => mail.to === 'client@example.com')?.attachments).toEqual([
      { fileName: 'adpilot-report-2026-11-22.pdf', contentType: 'application/pdf', size: pdf.length },
      { fileName: 'notes.txt', contentType: 'text/plain', size: 2 },
    ]);
    expect(mails.find((mail) => mail.to === 'plain@example.com')?.attachments).toEqual([]);

    const stored = await t.inspect((db) => db.select().from(mailOutboxAttachments));
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(stored)).not.toContain(pdf.toString('base64'));
    const sealed = stored.find((row) => row.fileName === 'adpilot-report-2026-11-22.pdf');
    expect(Buffer.from(t.secretBox.decrypt(sealed!.sealedContent), 'base64').equals(pdf)).toBe(true);

    // Expired mail goes, and its attachments with it.
    const purged = await t.database.system('test purge', (tx) =>
      t.mailOutbox.purgeExpired(tx, new Date(inAnHour().getTime() + 60_000)),
    );
    expect(purged).toBeGreaterThanOrEqual(2);
    expect(await t.inspect((db) => db.select().from(mailOutboxAttachments))).toEqual([]);
  });

  it('takes the role from the session, so a role change applies to the same token once the database announced it', async () => {
    await registerUser(t.app);
    const member = await registerUser(t.app);
    const url = '/api/admin/outbox';
    const setRole = async (role: 'admin' | 'user') => {
      await t.inspect((db) => db.update(users).set({ role }).where(eq(users.id, member.user.id)));
      await t.modules.auth.service.sessionsSettled();
    };
    expect((await t.app.inject({ method: 'GET', url, headers: member.auth })).statusCode).toBe(403);
    await setRole('admin');
    expect((await t.app.inject({ method: 'GET', url, headers: member.auth })).statusCode).toBe(200);
    await setRole('user');
    expect((await t.app.inject({ method: 'GET', url, headers: member.auth })).statusCode).toBe(403);
  });
});
