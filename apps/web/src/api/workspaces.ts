import {
  hasRole,
  type Invitation,
  type Workspace,
  type WorkspaceMember,
  type WorkspaceNameInput,
  type WorkspaceRole,
} from '@adpilot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api-client.ts';
import { chooseWorkspace, useWorkspaceChoice } from '../lib/current-workspace.ts';

/*
 * The user's workspaces and the current one's role are read by the shell and by every page that hides what the role
 * cannot do, so they live here (ADR 0026). The list is about the user, not a workspace: it is asked for without the
 * workspace header, and survives a switch while every other query is dropped.
 */
export const WORKSPACES_QUERY_KEY = ['workspaces'] as const;

export function workspacesQueryOptions() {
  return queryOptions({
    queryKey: WORKSPACES_QUERY_KEY,
    queryFn: ({ signal }) => api.get<Workspace[]>('/workspaces', { signal, workspace: false }),
  });
}

export const useWorkspaces = () => useQuery(workspacesQueryOptions());

/** The user's own personal workspace: the list puts it first. */
export function ownPersonalWorkspace(workspaces: readonly Workspace[]): Workspace | undefined {
  return workspaces.find((workspace) => workspace.personal);
}

export interface CurrentWorkspace {
  /** Undefined until the list is read (or when it cannot be). */
  workspace: Workspace | undefined;
  /**
   * The user's role in it. Before the list is read, the personal workspace (nothing chosen) is known to be the user's
   * own; a chosen one is unknown (null) until then, and nothing is offered that it might not allow.
   */
  role: WorkspaceRole | null;
}

export function useCurrentWorkspace(): CurrentWorkspace {
  const choice = useWorkspaceChoice();
  const { data } = useWorkspaces();
  // A user without a personal workspace (the demo's visitor, ADR 0185) works in the one workspace they have.
  const workspace =
    data && (data.find((candidate) => candidate.id === choice) ?? ownPersonalWorkspace(data) ?? data[0]);
  return { workspace, role: workspace?.role ?? (choice === null && data === undefined ? 'owner' : null) };
}

/** The current workspace's role (null while unknown). The one place pages learn what the user may do. */
export function useWorkspaceRole(): WorkspaceRole | null {
  return useCurrentWorkspace().role;
}

/** True when the user's role in the current workspace is at least `needed` (editor writes, admin manages members). */
export function useCan(needed: WorkspaceRole): boolean {
  const role = useWorkspaceRole();
  return role !== null && hasRole(role, needed);
}

/**
 * Makes a workspace this tab's current one. What was read for the old one is dropped and read again for the new one
 * (the list of workspaces excepted), so no page shows one client's data under another's name.
 */
export function useSwitchWorkspace(): (id: string) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (id: string) => {
      chooseWorkspace(id);
      void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== WORKSPACES_QUERY_KEY[0] });
    },
    [queryClient],
  );
}

/**
 * A chosen workspace the user is no longer a member of (removed, or deleted) gives way to the personal one without a
 * word, and what was read with it is read again.
 */
export function useWorkspaceFallback(): void {
  const choice = useWorkspaceChoice();
  const { data, isFetching } = useWorkspaces();
  const queryClient = useQueryClient();
  useEffect(() => {
    // Only a fresh list says the user left: one being read again may not have the workspace just joined yet.
    if (!data || isFetching || choice === null || data.some((workspace) => workspace.id === choice)) return;
    chooseWorkspace(null);
    void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== WORKSPACES_QUERY_KEY[0] });
  }, [data, isFetching, choice, queryClient]);
}

/** A workspace's name as the user reads it: a personal one is named for its owner, or "Personal" when it is theirs. */
export function useWorkspaceLabel(): (workspace: Workspace) => string {
  const { t } = useTranslation('common');
  const { data } = useWorkspaces();
  const own = data && ownPersonalWorkspace(data);
  return useCallback(
    (workspace: Workspace) => {
      if (!workspace.personal) return workspace.name;
      return workspace.id === own?.id ? t('workspace.personal') : t('workspace.personalOf', { name: workspace.name });
    },
    [t, own?.id],
  );
}

/** POST /api/workspaces: the creator is its owner; the list gains it at once. */
export function useCreateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WorkspaceNameInput) => api.post<Workspace>('/workspaces', body, { workspace: false }),
    onSuccess: (workspace) =>
      queryClient.setQueryData<Workspace[]>(WORKSPACES_QUERY_KEY, (list) => [...(list ?? []), workspace]),
  });
}

/*
 * A workspace's members and pending invitations: the Members page lists them, the Subscription page counts them
 * against the plan's seats. Each names its workspace in the path, and the keys carry the id.
 */
const workspacePath = (workspaceId: string) => `/workspaces/${encodeURIComponent(workspaceId)}`;

export const membersQueryKey = (workspaceId: string) => ['workspace-members', workspaceId] as const;
export const invitationsQueryKey = (workspaceId: string) => ['workspace-invitations', workspaceId] as const;

export function useMembers(workspaceId: string, enabled = true) {
  return useQuery({
    queryKey: membersQueryKey(workspaceId),
    queryFn: ({ signal }) => api.get<WorkspaceMember[]>(`${workspacePath(workspaceId)}/members`, { signal }),
    enabled,
  });
}

/** Pending invitations: only admins and owners may read them, so the page asks only then. */
export function useInvitations(workspaceId: string, enabled: boolean) {
  return useQuery({
    queryKey: invitationsQueryKey(workspaceId),
    queryFn: ({ signal }) => api.get<Invitation[]>(`${workspacePath(workspaceId)}/invitations`, { signal }),
    enabled,
  });
}
