import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { MailOutbox } from './mail-outbox.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** When what the mail carries (a link) stops working: a kept copy is deleted then. */
  expiresAt: Date;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
}

/** Real delivery through an SMTP server. */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp';
  private readonly transport: Transporter;

  constructor(
    options: { host: string; port: number; user?: string; pass?: string; secure: boolean },
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport({
      host: options.host,
      port: options.port,
      secure: options.secure,
      auth: options.user ? { user: options.user, pass: options.pass } : undefined,
    });
  }

  async send(mail: Mail): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
  }
}

/**
 * The embedded default: mail is kept in the outbox (the admin reads it there) and a log line says so.
 * The line names recipient and subject only — bodies hold single-use links.
 */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox';

  constructor(
    private readonly outbox: Pick<MailOutbox, 'store'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(mail: Mail): Promise<void> {
    await this.outbox.store(mail);
    this.log.info({ to: mail.to, subject: mail.subject }, 'mail stored in the outbox (no SMTP server configured)');
  }
}
