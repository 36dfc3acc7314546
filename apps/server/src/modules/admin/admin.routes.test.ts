import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthRepository } from '../auth/auth.repository.ts';
import { OutboxMailer } from '../../providers/mail/mailer.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

describe('admin outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('shows the admin the mail the outbox holds, and refuses everyone else', async () => {
    const admin = await registerUser(t.app);
    const member = await registerUser(t.app);
    expect(admin.user.role).toBe('admin');
    const outbox = new OutboxMailer(
      (mail) => new AuthRepository(t.database).insertOutboxMail(mail),
      pino({ level: 'silent' }),
    );
    await outbox.send({
      to: member.user.email,
      subject: 'Reset your AdPilot password',
      text: 'link: /reset-password?token=abc',
    });

    const response = await t.app.inject({ method: 'GET', url: '/api/admin/outbox', headers: admin.auth });
    expect(response.statusCode).toBe(200);
    expect(response.json().data[0]).toMatchObject({
      to: member.user.email,
      subject: 'Reset your AdPilot password',
      text: expect.stringContaining('token=abc'),
    });

    const refused = await t.app.inject({ method: 'GET', url: '/api/admin/outbox', headers: member.auth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('FORBIDDEN');
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/outbox' })).statusCode).toBe(401);
  });
});
