import type { AdAccount, syncResponseSchema } from '@adpilot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { AD_ACCOUNTS_QUERY_KEY, restartSyncPolling } from '../../../api/ad-accounts.ts';

export type SyncAdAccountResponse = z.infer<typeof syncResponseSchema>;

export function syncAdAccount(id: string): Promise<SyncAdAccountResponse> {
  return api.post<SyncAdAccountResponse>(`/ad-accounts/${encodeURIComponent(id)}/sync`);
}

interface SyncCallbacks {
  onSuccess?: (response: SyncAdAccountResponse) => void;
  onError?: (error: Error) => void;
}

export function useSyncAdAccount({ onSuccess, onError }: SyncCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncAdAccount,
    onSuccess: (response) => {
      // The answer already carries the queued account: showing it at once starts the list's polling
      // (see adAccountsQueryOptions) without waiting for a refetch.
      restartSyncPolling(queryClient);
      queryClient.setQueryData<AdAccount[]>(AD_ACCOUNTS_QUERY_KEY, (accounts) =>
        accounts?.map((account) => (account.id === response.account.id ? response.account : account)),
      );
      onSuccess?.(response);
    },
    onError,
  });
}
