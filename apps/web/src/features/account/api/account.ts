import type {
  Account,
  AccountSession,
  ChangePassword,
  DeleteAccount,
  UpdateAccount,
  WorkspaceTransfer,
} from '@adpilot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { WORKSPACES_QUERY_KEY } from '../../../api/workspaces.ts';
import { api } from '../../../lib/api-client.ts';

/** My account is about the person, never the chosen workspace: no workspace header on any of these calls. */
const personal = { workspace: false } as const;

export const ACCOUNT_QUERY_KEY = ['account'] as const;
const SESSIONS_QUERY_KEY = ['account', 'sessions'] as const;
const HANDOVERS_QUERY_KEY = ['account', 'handovers'] as const;

export function useAccount() {
  return useQuery({
    queryKey: ACCOUNT_QUERY_KEY,
    queryFn: ({ signal }) => api.get<Account>('/account', { signal, ...personal }),
  });
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAccount) => api.patch<Account>('/account', body, personal),
    onSuccess: (account) => queryClient.setQueryData(ACCOUNT_QUERY_KEY, account),
  });
}

/** Every other session ends with the change: the list is read again. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePassword) => api.post<{ message: string }>('/account/password', body, personal),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}

export function useAccountSessions() {
  return useQuery({
    queryKey: SESSIONS_QUERY_KEY,
    queryFn: ({ signal }) => api.get<AccountSession[]>('/account/sessions', { signal, ...personal }),
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message: string }>(`/account/sessions/${id}`, undefined, personal),
    onSuccess: (_answer, id) =>
      queryClient.setQueryData<AccountSession[]>(SESSIONS_QUERY_KEY, (sessions) =>
        sessions?.filter((session) => session.id !== id),
      ),
  });
}

export function useHandovers() {
  return useQuery({
    queryKey: HANDOVERS_QUERY_KEY,
    queryFn: ({ signal }) => api.get<WorkspaceTransfer[]>('/account/handovers', { signal, ...personal }),
  });
}

/** Taking a workspace over changes who pays for it and the person's role: the account is read again. */
export function useAcceptHandover() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.post<{ workspaceId: string }>(`/workspaces/transfers/${id}/accept`, undefined, personal),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ACCOUNT_QUERY_KEY });
      await queryClient.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY });
    },
  });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (body: DeleteAccount) => api.delete<{ message: string }>('/account', body, personal),
  });
}

/** "Export my data": the server prepares the ZIP as a job and mails a link that works once (ADR 0116). */
export function useExportMyData() {
  return useMutation({
    mutationFn: () => api.post<{ message: string }>('/account/export', undefined, personal),
  });
}
