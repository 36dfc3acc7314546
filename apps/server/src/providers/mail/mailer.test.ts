import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpMailer } from './mailer.ts';

/** The SMTP mailer against a local SMTP server speaking the real protocol. */
describe('SmtpMailer', () => {
  const received: { from: string; to: string[]; data: string; user?: string }[] = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      secure: false,
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 'pw') return callback(null, { user: auth.username });
        return callback(new Error('bad credentials'));
      },
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
            user: session.user as string | undefined,
          });
          callback();
        });
      },
    });
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers a message with authentication', async () => {
    const mailer = new SmtpMailer(
      { host: '127.0.0.1', port, user: 'mailer', pass: 'pw', secure: false },
      'AdPilot <no-reply@adpilot.local>',
    );
    await mailer.send({
      to: 'ann@example.com',
      subject: 'Reset your AdPilot password',
      text: 'Open https://x/reset-password?token=abc',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'no-reply@adpilot.local', to: ['ann@example.com'], user: 'mailer' });
    expect(received[0]?.data).toContain('Subject: Reset your AdPilot password');
    expect(received[0]?.data).toContain('reset-password?token=abc');
  });

  it('fails loudly on wrong credentials', async () => {
    const mailer = new SmtpMailer({ host: '127.0.0.1', port, user: 'mailer', pass: 'wrong', secure: false }, 'a@b.c');
    await expect(
      mailer.send({ to: 'ann@example.com', subject: 's', text: 't', expiresAt: new Date() }),
    ).rejects.toThrow();
  });
});
