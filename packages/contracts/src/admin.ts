import { z } from 'zod';

/** A message the embedded mail outbox holds instead of sending it (no SMTP server configured). */
export const outboxMailSchema = z.object({
  id: z.uuid(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.string(),
  /** When the link the mail carries expires; the outbox deletes the mail then. */
  expiresAt: z.string(),
  /** What the mail carried attached (a scheduled report's PDF), described; the bytes stay in the outbox. */
  attachments: z.array(z.object({ fileName: z.string(), contentType: z.string(), size: z.number().int() })),
});

export const outboxQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export type OutboxMail = z.infer<typeof outboxMailSchema>;
