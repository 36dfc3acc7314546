import type { AdAccount } from '@adpilot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { AD_ACCOUNTS_QUERY_KEY, restartSyncPolling } from '../../../api/ad-accounts.ts';

/** PATCH /ad-accounts/:id { backfill_days }: how far back the account's daily insights are read (ADR 0103). */
export function updateBackfillDays({ id, days }: { id: string; days: number }): Promise<AdAccount> {
  return api.patch<AdAccount>(`/ad-accounts/${encodeURIComponent(id)}`, { backfill_days: days });
}

export function useUpdateBackfillDays({ onError }: { onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBackfillDays,
    onSuccess: (account) => {
      // A longer history is fetched in the background: the list polls until the card shows it complete.
      restartSyncPolling(queryClient);
      queryClient.setQueryData<AdAccount[]>(AD_ACCOUNTS_QUERY_KEY, (accounts) =>
        accounts?.map((row) => (row.id === account.id ? account : row)),
      );
    },
    onError,
  });
}
