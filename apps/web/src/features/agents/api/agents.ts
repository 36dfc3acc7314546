import type {
  AgentPolicy,
  AgentPolicyInput,
  ApiToken,
  CreateApiTokenRequest,
  CreatedApiToken,
  OAuthAuthorization,
  OAuthAuthorizationQuery,
  OAuthConsentRequest,
} from '@adpilot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/*
 * The AI agents page's calls: the current workspace's tokens and grants (header-scoped, like every workspace list),
 * its agent policy (the workspace named in the path) and the OAuth consent page's two calls, which are the person's.
 */
export const apiTokensQueryKey = (workspaceId: string) => ['api-tokens', workspaceId] as const;
export const agentPolicyQueryKey = (workspaceId: string) => ['agent-policy', workspaceId] as const;

export function useApiTokens(workspaceId: string | undefined) {
  return useQuery({
    queryKey: apiTokensQueryKey(workspaceId ?? ''),
    queryFn: ({ signal }) => api.get<ApiToken[]>('/tokens', { signal }),
    enabled: workspaceId !== undefined,
  });
}

export function useCreateApiToken(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiTokenRequest) => api.post<CreatedApiToken>('/tokens', body),
    // The list never holds the secret: the token shown once stays in the dialog that made it.
    onSuccess: ({ token: _secret, ...created }) =>
      queryClient.setQueryData<ApiToken[]>(apiTokensQueryKey(workspaceId), (list) =>
        list ? [created, ...list] : list,
      ),
  });
}

export function useRevokeApiToken(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: ApiToken) => api.delete<void>(`/tokens/${encodeURIComponent(token.id)}`),
    onSuccess: (_answer, token) =>
      queryClient.setQueryData<ApiToken[]>(apiTokensQueryKey(workspaceId), (list) =>
        list?.filter((item) => item.id !== token.id),
      ),
  });
}

const policyPath = (workspaceId: string) => `/workspaces/${encodeURIComponent(workspaceId)}/agent-policy`;

export function useAgentPolicy(workspaceId: string | undefined) {
  return useQuery({
    queryKey: agentPolicyQueryKey(workspaceId ?? ''),
    queryFn: ({ signal }) => api.get<AgentPolicy>(policyPath(workspaceId!), { signal }),
    enabled: workspaceId !== undefined,
  });
}

export function useSaveAgentPolicy(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AgentPolicyInput) => api.put<AgentPolicy>(policyPath(workspaceId), body),
    onSuccess: (policy) => queryClient.setQueryData(agentPolicyQueryKey(workspaceId), policy),
  });
}

// The consent page is about the person, whichever workspace the tab has chosen: no workspace header.
const outsideWorkspace = { workspace: false } as const;

export function useOAuthAuthorization(query: OAuthAuthorizationQuery | null) {
  return useQuery({
    queryKey: ['oauth-authorization', query] as const,
    queryFn: ({ signal }) =>
      api.get<OAuthAuthorization>('/oauth/authorization', { signal, query: { ...query }, ...outsideWorkspace }),
    enabled: query !== null,
    retry: false,
  });
}

export function useOAuthConsent() {
  return useMutation({
    mutationFn: (body: OAuthConsentRequest) =>
      api.post<{ redirectTo: string }>('/oauth/consent', body, { ...outsideWorkspace }),
  });
}
