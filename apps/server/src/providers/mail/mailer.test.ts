import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpFake, type RunningSmtpFake } from '../../test/fakes/smtp-fake.ts';
import { SmtpMailer } from './mailer.ts';

/** The SMTP mailer against a local SMTP server speaking the real protocol. */
describe('SmtpMailer', () => {
  let smtp: RunningSmtpFake;

  beforeAll(async () => {
    smtp = await startSmtpFake({ user: 'mailer', pass: 'pw' });
  });
  afterAll(() => smtp.close());

  it('delivers a message with authentication', async () => {
    const mailer = new SmtpMailer(
      { host: '127.0.0.1', port: smtp.port, user: 'mailer', pass: 'pw', secure: false },
      'AdPilot <no-reply@adpilot.local>',
    );
    await mailer.send({
      to: 'ann@example.com',
      subject: 'Reset your AdPilot password',
      text: 'Open https://x/reset-password?token=abc',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ from: 'no-reply@adpilot.local', to: ['ann@example.com'], user: 'mailer' });
    expect(smtp.received[0]?.data).toContain('Subject: Reset your AdPilot password');
    expect(smtp.received[0]?.data).toContain('reset-password?token=abc');
  });

  it('carries attachments as MIME parts with their name and type', async () => {
    const mailer = new SmtpMailer(
      { host: '127.0.0.1', port: smtp.port, user: 'mailer', pass: 'pw', secure: false },
      'a@b.c',
    );
    const pdf = Buffer.from('%PDF-1.4 report bytes');
    await mailer.send({
      to: 'client@example.com',
      subject: 'Weekly report',
      text: 'See attached.',
      expiresAt: new Date(Date.now() + 3_600_000),
      attachments: [{ fileName: 'adpilot-report-2026-11-22.pdf', contentType: 'application/pdf', content: pdf }],
    });
    const data = smtp.received.at(-1)?.data ?? '';
    expect(data).toContain('Content-Type: application/pdf; name=adpilot-report-2026-11-22.pdf');
    expect(data).toContain('Content-Disposition: attachment; filename=adpilot-report-2026-11-22.pdf');
    expect(data.replace(/\r?\n/g, '')).toContain(pdf.toString('base64'));
  });

  it('fails loudly on wrong credentials', async () => {
    const mailer = new SmtpMailer(
      { host: '127.0.0.1', port: smtp.port, user: 'mailer', pass: 'wrong', secure: false },
      'a@b.c',
    );
    await expect(
      mailer.send({ to: 'ann@example.com', subject: 's', text: 't', expiresAt: new Date() }),
    ).rejects.toThrow();
  });
});
