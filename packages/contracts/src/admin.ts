import { z } from 'zod';
import { planIdSchema } from './subscription.ts';

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

/**
 * A workspace as the instance administrator's Users page lists it (ADR 0087): its owners and its plan, which the
 * administrator assigns when the instance bills without Stripe.
 */
export const adminWorkspaceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  personal: z.boolean(),
  members: z.number().int(),
  owners: z.array(z.object({ id: z.uuid(), name: z.string(), email: z.string() })),
  plan: planIdSchema,
});

export const adminWorkspaceParamsSchema = z.strictObject({ workspaceId: z.uuid({ error: 'Invalid workspace id' }) });
export const assignPlanRequestSchema = z.strictObject({ planId: planIdSchema });

export type AdminWorkspace = z.infer<typeof adminWorkspaceSchema>;
export type AssignPlanRequest = z.infer<typeof assignPlanRequestSchema>;
