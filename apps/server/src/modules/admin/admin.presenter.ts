import type { OutboxMail } from '@adpilot/contracts';
import type { MailOutboxRow } from '@adpilot/db';

/** `open` unseals the body (the outbox keeps it encrypted at rest). */
export function presentOutboxMail(mail: MailOutboxRow, open: (sealed: string) => string): OutboxMail {
  return {
    id: mail.id,
    to: mail.toAddress,
    subject: mail.subject,
    text: open(mail.sealedBody),
    createdAt: mail.createdAt.toISOString(),
    expiresAt: mail.expiresAt.toISOString(),
    // Nothing is attached yet; scheduled reports attach their PDF.
    attachments: [],
  };
}
