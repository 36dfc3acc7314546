import type { SystemTx } from '@adpilot/db';
import type { SecretBox } from '../../lib/crypto.ts';
import type { Mail } from './mailer.ts';
import type { MailOutboxRepository } from './mail-outbox.repository.ts';

/**
 * Mail kept in the database instead of sent (no SMTP server). Bodies carry live reset links, so they are sealed at
 * rest and opened only for the administrator; the hourly maintenance job deletes each one when it expires. An
 * attachment's bytes are sealed the same way and go with their mail.
 */
export class MailOutbox {
  constructor(
    private readonly repository: MailOutboxRepository,
    private readonly secretBox: SecretBox,
  ) {}

  store(mail: Mail): Promise<void> {
    return this.repository.insert({
      toAddress: mail.to,
      subject: mail.subject,
      sealedBody: this.secretBox.encrypt(mail.text),
      expiresAt: mail.expiresAt,
      attachments: (mail.attachments ?? []).map((file) => ({
        fileName: file.fileName,
        contentType: file.contentType,
        size: file.content.length,
        sealedContent: this.secretBox.encrypt(file.content.toString('base64')),
      })),
    });
  }

  /** An outbox mail carries a reset link: once the link is dead the mail is only a liability. */
  purgeExpired(tx: SystemTx, now: Date): Promise<number> {
    return this.repository.purgeExpired(tx, now);
  }
}
