import type {
  Invitation,
  InvitationInput,
  SentInvitation,
  Workspace,
  WorkspaceMember,
  WorkspaceNameInput,
  WorkspaceRole,
} from '@adpilot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invitationsQueryKey, membersQueryKey, WORKSPACES_QUERY_KEY } from '../../../api/workspaces.ts';
import { api } from '../../../lib/api-client.ts';

/*
 * The Members page's calls. Each names its workspace in the path; the header goes along (it is the same workspace),
 * and the lists' keys carry the id so two workspaces' members never share a cache entry.
 */
const workspacePath = (workspaceId: string) => `/workspaces/${encodeURIComponent(workspaceId)}`;

// The lists are shared with the Subscription page's seats meter (ADR 0026): their keys and queries live in api/.
export { useInvitations, useMembers } from '../../../api/workspaces.ts';

export function useChangeMemberRole(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: WorkspaceRole }) =>
      api.patch<WorkspaceMember>(`${workspacePath(workspaceId)}/members/${encodeURIComponent(userId)}`, { role }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersQueryKey(workspaceId) }),
  });
}

/** Removes a member, or the user themselves (leaving the workspace). */
export function useRemoveMember(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (member: WorkspaceMember) =>
      api.delete<void>(`${workspacePath(workspaceId)}/members/${encodeURIComponent(member.userId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersQueryKey(workspaceId) }),
  });
}

export function useInvite(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InvitationInput) => api.post<SentInvitation>(`${workspacePath(workspaceId)}/invitations`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsQueryKey(workspaceId) }),
  });
}

export function useRevokeInvitation(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitation: Invitation) =>
      api.delete<void>(`${workspacePath(workspaceId)}/invitations/${encodeURIComponent(invitation.id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsQueryKey(workspaceId) }),
  });
}

export function useResendInvitation(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitation: Invitation) =>
      api.post<SentInvitation>(`${workspacePath(workspaceId)}/invitations/${encodeURIComponent(invitation.id)}/resend`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsQueryKey(workspaceId) }),
  });
}

export function useRenameWorkspace(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WorkspaceNameInput) => api.patch<Workspace>(workspacePath(workspaceId), body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY }),
  });
}

/** Deleting is the owner's, never of a personal workspace; the caller moves the tab to the personal one. */
export function useDeleteWorkspace(workspaceId: string) {
  return useMutation({
    mutationFn: () => api.delete<void>(workspacePath(workspaceId)),
  });
}
