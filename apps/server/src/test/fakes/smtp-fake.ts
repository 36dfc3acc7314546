import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface RunningSmtpFake {
  port: number;
  /** Each message as it arrived: the envelope's sender and recipients, the raw data, the user who signed in. */
  received: { from: string; to: string[]; data: string; user?: string }[];
  close(): Promise<void>;
}

/** An SMTP server speaking the real protocol, accepting only `user` / `pass` (plain auth, no TLS). */
export async function startSmtpFake(credentials: { user: string; pass: string }): Promise<RunningSmtpFake> {
  const received: RunningSmtpFake['received'] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass)
        return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
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
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) as their bytes, read as latin1 until the end. */
function decodeWords(value: string): string {
  const joined = value.replace(/\?=\s+=\?/g, '?==?');
  const bytes = joined.replace(/=\?[^?]+\?([BbQq])\?([^?]*)\?=/g, (_m, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('latin1')
      : data
          .replace(/_/g, ' ')
          .replace(/=([0-9A-Fa-f]{2})/g, (_q, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  );
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A received single-part text message as its reader sees it: the decoded subject and body (line breaks as \n). */
export function readMail(data: string): { subject: string; text: string } {
  const split = data.indexOf('\r\n\r\n');
  const head = data.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = data.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').trim().toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? Buffer.from(
            body
              .replace(/=\r?\n/g, '')
              .replace(/=([0-9A-Fa-f]{2})/g, (_q, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          )
        : Buffer.from(body, 'utf8');
  return { subject: decodeWords(header('Subject')), text: bytes.toString('utf8').replace(/\r\n/g, '\n').trimEnd() };
}
