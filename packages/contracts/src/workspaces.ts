import { z } from 'zod';
import { INVITATION_MAIL_STATES } from './outbound-mail.ts';
import { text } from './text.ts';
import { WORKSPACE_ROLES } from './workspace-roles.ts';

/** Workspaces (ADR 0070): the tenant every table moves to, with members and their roles. */

/** An invitation link is valid this long. */
export const INVITATION_TTL_DAYS = 7;
/** An invitation may be sent again at most this many times an hour. */
export const INVITATION_RESENDS_PER_HOUR = 5;

/** A workspace as its member sees it. A personal workspace's name is its owner's name; the web words it. */
export const workspaceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  role: z.enum(WORKSPACE_ROLES),
  personal: z.boolean(),
});

/** GET /api/workspaces: the signed-in user's workspaces, the personal one first. */
export const workspaceListSchema = z.array(workspaceSchema);

export type Workspace = z.infer<typeof workspaceSchema>;

const workspaceName = text({ required: 'Workspace name is required', trim: true })
  .min(1, 'Workspace name is required')
  .max(80, 'Workspace name must be at most 80 characters');

/** POST /api/workspaces and PATCH /api/workspaces/:id. */
export const workspaceNameInputSchema = z.strictObject({ name: workspaceName });
export type WorkspaceNameInput = z.infer<typeof workspaceNameInputSchema>;

/** GET /api/workspaces/:id/members. */
export const workspaceMemberSchema = z.object({
  userId: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: z.enum(WORKSPACE_ROLES),
});
export const workspaceMemberListSchema = z.array(workspaceMemberSchema);
export type WorkspaceMember = z.infer<typeof workspaceMemberSchema>;

/** PATCH /api/workspaces/:id/members/:userId. */
export const memberRoleInputSchema = z.strictObject({ role: z.enum(WORKSPACE_ROLES) });
export type MemberRoleInput = z.infer<typeof memberRoleInputSchema>;

/** POST /api/workspaces/:id/invitations. */
export const invitationInputSchema = z.strictObject({
  email: z.string().trim().toLowerCase().pipe(z.email('Please enter a valid email address')),
  role: z.enum(WORKSPACE_ROLES),
});
export type InvitationInput = z.infer<typeof invitationInputSchema>;

/** A pending invitation as the workspace's admins see it (never its token). */
export const invitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(WORKSPACE_ROLES),
  invitedBy: z.string().nullable(),
  expiresAt: z.string(),
  createdAt: z.string(),
});
export const invitationListSchema = z.array(invitationSchema);

/**
 * What inviting (and re-sending) answers: the invitation, and how its mail went (ADR 0092): `sent`; `queued` (the
 * mail server refused for now, the mail follows); withheld while the address has not answered the workspace's
 * first mail, or because it unsubscribed from the workspace's mail.
 */
export const sentInvitationSchema = invitationSchema.extend({ mail: z.enum(INVITATION_MAIL_STATES) });
export type SentInvitation = z.infer<typeof sentInvitationSchema>;
export type Invitation = z.infer<typeof invitationSchema>;

/** POST /api/invitations/accept. */
export const acceptInvitationInputSchema = z.strictObject({ token: z.string().min(1).max(200) });
export type AcceptInvitationInput = z.infer<typeof acceptInvitationInputSchema>;

/** GET /api/invitations/preview?token=…: what the invitation page shows before anyone signs in. */
export const invitationPreviewSchema = z.object({
  workspaceName: z.string(),
  personal: z.boolean(),
  role: z.enum(WORKSPACE_ROLES),
  email: z.string(),
  invitedBy: z.string().nullable(),
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** The path parameters of /api/workspaces/{id}/… */
export const workspaceIdParamsSchema = z.strictObject({ id: z.uuid({ error: 'Invalid workspace id' }) });
export const workspaceMemberParamsSchema = z.strictObject({
  id: z.uuid({ error: 'Invalid workspace id' }),
  userId: z.uuid({ error: 'Invalid user id' }),
});
export const workspaceInvitationParamsSchema = z.strictObject({
  id: z.uuid({ error: 'Invalid workspace id' }),
  invitationId: z.uuid({ error: 'Invalid invitation id' }),
});

/** GET /api/invitations/preview?token=… */
export const invitationPreviewQuerySchema = z.strictObject({ token: z.string().min(1).max(200) });

/** POST /api/workspaces/:id/transfer (owner): offers the workspace, with its plan, to another member (issue 31). */
export const workspaceTransferInputSchema = z.strictObject({ toUserId: z.uuid({ error: 'Choose a member' }) });
export type WorkspaceTransferInput = z.infer<typeof workspaceTransferInputSchema>;

export const workspaceTransferParamsSchema = z.strictObject({ id: z.uuid({ error: 'Invalid handover id' }) });

/** A handover waiting for its receiver, as both sides see it. */
export const workspaceTransferSchema = z.object({
  id: z.uuid(),
  workspaceId: z.uuid(),
  workspaceName: z.string(),
  fromUserId: z.uuid(),
  fromName: z.string(),
  toUserId: z.uuid(),
  createdAt: z.string(),
});
export const workspaceTransferListSchema = z.array(workspaceTransferSchema);
export type WorkspaceTransfer = z.infer<typeof workspaceTransferSchema>;

/** Which pooled limit a handover would pass (409 WORKSPACE_TRANSFER_DOES_NOT_FIT, with the plan and its figure). */
export const TRANSFER_LIMITS = ['adAccounts', 'activeRules', 'seats'] as const;
export const WORKSPACE_TRANSFER_MESSAGES = {
  doesNotFit: (limit: (typeof TRANSFER_LIMITS)[number], figure: number) =>
    `The workspace does not fit the receiver's plan: it allows ${figure} ${
      { adAccounts: 'ad accounts', activeRules: 'active rules', seats: 'seats' }[limit]
    }`,
  unknown: 'No such handover waiting for you',
  personal: 'A personal workspace stays with its owner',
  self: 'Choose another member to hand the workspace to',
} as const;
