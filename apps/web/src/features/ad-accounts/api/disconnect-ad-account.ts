import type { AdAccount } from '@adpilot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { AD_ACCOUNTS_QUERY_KEY } from '../../../api/ad-accounts.ts';
import { RULES_QUERY_KEY } from '../../../api/rules.ts';

export function disconnectAdAccount(id: string): Promise<void> {
  return api.delete<void>(`/ad-accounts/${encodeURIComponent(id)}`);
}

interface DisconnectCallbacks {
  onSuccess?: (account: AdAccount) => void;
  onError?: (error: Error, account: AdAccount) => void;
}

export function useDisconnectAdAccount({ onSuccess, onError }: DisconnectCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (account: AdAccount) => disconnectAdAccount(account.id),
    onSuccess: (_data, account) => {
      // The card goes at once; the refetch then brings in anything else that changed meanwhile.
      queryClient.setQueryData<AdAccount[]>(AD_ACCOUNTS_QUERY_KEY, (accounts) =>
        accounts?.filter((item) => item.id !== account.id),
      );
      onSuccess?.(account);
      // The server took the account out of the rules naming it (switching off those left with none).
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: AD_ACCOUNTS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: RULES_QUERY_KEY }),
      ]);
    },
    onError,
  });
}
