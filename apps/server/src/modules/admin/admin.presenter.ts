import type { AdminWorkspace, OutboxMail, PlanId } from '@adpilot/contracts';
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

/** A workspace of the Users page: its owners as the users table names them, and its plan. */
export function presentAdminWorkspace(
  row: { id: string; name: string; personal: boolean; members: number; ownerIds: string[] },
  profiles: ReadonlyMap<string, { id: string; name: string; email: string }>,
  plan: PlanId,
): AdminWorkspace {
  return {
    id: row.id,
    name: row.name,
    personal: row.personal,
    members: row.members,
    owners: row.ownerIds.flatMap((id) => {
      const profile = profiles.get(id);
      return profile ? [{ id: profile.id, name: profile.name, email: profile.email }] : [];
    }),
    plan,
  };
}
