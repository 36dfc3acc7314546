import type { AcceptInvitationInput, InvitationPreview, Workspace } from '@adpilot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { WORKSPACES_QUERY_KEY } from '../../../api/workspaces.ts';
import { api } from '../../../lib/api-client.ts';

// Neither call is about the current workspace: the preview is public, and accepting joins another one.
const outsideWorkspace = { workspace: false } as const;

/** GET /api/invitations/preview: public, so a 401 is an answer and not a session to refresh. */
export function useInvitationPreview(token: string | null) {
  return useQuery({
    queryKey: ['invitation-preview', token] as const,
    queryFn: ({ signal }) =>
      api.get<InvitationPreview>('/invitations/preview', {
        signal,
        query: { token },
        retryOnUnauthorized: false,
        ...outsideWorkspace,
      }),
    enabled: Boolean(token),
    retry: false,
  });
}

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AcceptInvitationInput) =>
      api.post<Workspace>('/invitations/accept', body, { ...outsideWorkspace }),
    // In the list at once, so the switch to it is not taken for a workspace the user has left.
    onSuccess: (workspace) => {
      queryClient.setQueryData<Workspace[]>(WORKSPACES_QUERY_KEY, (list) =>
        list && !list.some((item) => item.id === workspace.id) ? [...list, workspace] : list,
      );
      return queryClient.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY });
    },
  });
}
