import type { Invitation } from '@adpilot/contracts';
import type { WorkspaceInvitationRow } from '@adpilot/db';

/** An invitation as the workspace's admins see it: never its token or hash. `invitedBy` is the inviter's name. */
export function presentInvitation(row: WorkspaceInvitationRow, invitedBy: string | null): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}
