import {
  hasRole,
  WORKSPACE_ROLES,
  type Invitation,
  type WorkspaceMember,
  type WorkspaceRole,
} from '@adpilot/contracts';

/*
 * What the Members page offers to whom (ADR 0070): admins and owners manage members and invitations, but only an
 * owner touches an owner or makes one. The server checks the same; the page only leaves out what would be refused.
 */

/** The roles `role` may give, to a member or an invitation. */
export function assignableRoles(role: WorkspaceRole | null): WorkspaceRole[] {
  if (role === 'owner') return [...WORKSPACE_ROLES];
  if (role === 'admin') return WORKSPACE_ROLES.filter((candidate) => candidate !== 'owner');
  return [];
}

/** Whether `role` may change or remove `member` (not themselves: they leave instead). */
export function canManageMember(role: WorkspaceRole | null, member: WorkspaceMember, ownUserId: string): boolean {
  if (role === null || !hasRole(role, 'admin') || member.userId === ownUserId) return false;
  return role === 'owner' || member.role !== 'owner';
}

/** Whether `role` may re-send or withdraw `invitation`: an invitation to be an owner is an owner's alone. */
export function canManageInvitation(role: WorkspaceRole | null, invitation: Pick<Invitation, 'role'>): boolean {
  if (role === null || !hasRole(role, 'admin')) return false;
  return role === 'owner' || invitation.role !== 'owner';
}
