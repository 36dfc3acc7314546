import type { OutboxMail } from '@adpilot/contracts';
import type { MailOutboxRow } from '@adpilot/db';

export function presentOutboxMail(mail: MailOutboxRow): OutboxMail {
  return {
    id: mail.id,
    to: mail.toAddress,
    subject: mail.subject,
    text: mail.textBody,
    createdAt: mail.createdAt.toISOString(),
  };
}
