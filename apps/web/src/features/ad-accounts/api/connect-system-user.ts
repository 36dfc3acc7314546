import type { FacebookCallbackResponse } from '@adpilot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { AD_ACCOUNTS_QUERY_KEY } from '../../../api/ad-accounts.ts';

/** POST /api/ad-accounts/system-user (ADR 0190): every account a Business Manager system user's token reaches. */
export function useConnectSystemUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      api.post<FacebookCallbackResponse>('/ad-accounts/system-user', { access_token: token }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: AD_ACCOUNTS_QUERY_KEY }),
  });
}
