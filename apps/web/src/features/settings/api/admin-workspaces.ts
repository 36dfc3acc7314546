import type { AdminWorkspace, PlanId } from '@adpilot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const ADMIN_WORKSPACES_QUERY_KEY = ['admin', 'workspaces'] as const;

/** The instance administrator's list of workspaces with their owners and plans (ADR 0087). */
export function adminWorkspacesQueryOptions() {
  return queryOptions({
    queryKey: ADMIN_WORKSPACES_QUERY_KEY,
    queryFn: ({ signal }) => api.get<AdminWorkspace[]>('/admin/workspaces', { signal }),
    retry: false,
  });
}

export function useAdminWorkspaces(enabled: boolean) {
  return useQuery({ ...adminWorkspacesQueryOptions(), enabled });
}

/** Assigns a workspace's plan; the answer is the workspace as listed, put in the list in place. */
export function useAssignPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ workspaceId, planId }: { workspaceId: string; planId: PlanId }) =>
      api.put<AdminWorkspace>(`/admin/workspaces/${encodeURIComponent(workspaceId)}/plan`, { planId }),
    onSuccess: (assigned) => {
      queryClient.setQueryData<AdminWorkspace[]>(ADMIN_WORKSPACES_QUERY_KEY, (list) =>
        list?.map((workspace) => (workspace.id === assigned.id ? assigned : workspace)),
      );
    },
  });
}
