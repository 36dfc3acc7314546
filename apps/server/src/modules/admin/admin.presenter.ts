import type { OutboxMail } from '@adpilot/contracts';
import type { MailOutboxRow } from '@adpilot/db';
import type { OutboxAttachmentInfo } from './admin.repository.ts';

/** `open` unseals the body (the outbox keeps it encrypted at rest); attachments are described, never opened. */
export function presentOutboxMail(
  mail: MailOutboxRow,
  attachments: readonly OutboxAttachmentInfo[],
  open: (sealed: string) => string,
): OutboxMail {
  return {
    id: mail.id,
    to: mail.toAddress,
    subject: mail.subject,
    text: open(mail.sealedBody),
    createdAt: mail.createdAt.toISOString(),
    expiresAt: mail.expiresAt.toISOString(),
    attachments: attachments.map(({ fileName, contentType, size }) => ({ fileName, contentType, size })),
  };
}
