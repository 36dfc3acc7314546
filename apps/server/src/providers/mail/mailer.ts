import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderSettings, SettingsReader } from '../../config/runtime-settings.ts';
import type { MailOutbox } from './mail-outbox.ts';

/** A file a mail carries (a scheduled report's PDF). */
export interface MailAttachment {
  fileName: string;
  contentType: string;
  content: Buffer;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** When what the mail carries (a link) stops working: a kept copy is deleted then. */
  expiresAt: Date;
  attachments?: MailAttachment[];
  /** Extra header fields (outbound mail's List-Unsubscribe and List-Unsubscribe-Post, ADR 0092). */
  headers?: Record<string, string>;
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
    timeoutMs?: number,
  ) {
    this.transport = nodemailer.createTransport({
      host: options.host,
      port: options.port,
      secure: options.secure,
      auth: options.user ? { user: options.user, pass: options.pass } : undefined,
      ...(timeoutMs ? { connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs } : {}),
    });
  }

  async send(mail: Mail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.headers ? { headers: mail.headers } : {}),
      attachments: (mail.attachments ?? []).map((file) => ({
        filename: file.fileName,
        contentType: file.contentType,
        content: file.content,
      })),
    });
  }

  /** Connects, greets and authenticates without sending anything (Settings' connection test). */
  async verify(): Promise<void> {
    await this.transport.verify();
  }

  close(): void {
    this.transport.close();
  }
}

type MailSettings = ProviderSettings['mail'];

/** The SMTP transport for mail settings, or undefined when they name no server. */
export function smtpMailerFor(settings: MailSettings, from: string, timeoutMs?: number): SmtpMailer | undefined {
  if (settings.mode !== 'smtp' || !settings.host) return undefined;
  return new SmtpMailer(
    { host: settings.host, port: settings.port, user: settings.user, pass: settings.pass, secure: settings.secure },
    from,
    timeoutMs,
  );
}

/**
 * The mailer of the instance: SMTP while Settings or the environment name a server, the outbox otherwise. It reads
 * the settings seam at every send, so a server saved in Settings is used from the next mail on, in every process.
 */
export class ConfiguredMailer implements Mailer {
  private smtp?: { key: string; mailer: SmtpMailer };

  constructor(
    private readonly settings: SettingsReader,
    private readonly outbox: Mailer,
    private readonly from: string,
  ) {}

  get kind(): Mailer['kind'] {
    return this.settings.current().mail.mode;
  }

  async send(mail: Mail): Promise<void> {
    const smtp = this.currentSmtp();
    await (smtp ?? this.outbox).send(mail);
  }

  private currentSmtp(): SmtpMailer | undefined {
    const settings = this.settings.current().mail;
    const key = JSON.stringify(settings);
    if (this.smtp?.key === key) return this.smtp.mailer;
    this.smtp?.mailer.close();
    const mailer = smtpMailerFor(settings, this.from);
    this.smtp = mailer ? { key, mailer } : undefined;
    return mailer;
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
