import type { FacebookCallbackResponse } from '@adpilot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { AD_ACCOUNTS_QUERY_KEY } from '../../../api/ad-accounts.ts';

export interface FacebookCallbackParams {
  code: string;
  state: string;
}

export function completeFacebookConnect(params: FacebookCallbackParams): Promise<FacebookCallbackResponse> {
  return api.post<FacebookCallbackResponse>('/ad-accounts/facebook/callback', params);
}

interface CompleteCallbacks {
  onSuccess?: (response: FacebookCallbackResponse) => void;
  onError?: (error: Error) => void;
}

/**
 * The callbacks are the mutation's own (not `mutate`'s), so the outcome is reported even if the page
 * re-mounts while the code is being exchanged.
 */
export function useCompleteFacebookConnect({ onSuccess, onError }: CompleteCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeFacebookConnect,
    onSuccess: async (response) => {
      onSuccess?.(response);
      // The page came back from the consent screen and asked for the list at the same moment as it sent the code:
      // a read still under way may have left before the accounts were stored. Drop it, then read again.
      await queryClient.cancelQueries({ queryKey: AD_ACCOUNTS_QUERY_KEY });
      // Returned, so the mutation stays pending until the new cards are on screen.
      return queryClient.invalidateQueries({ queryKey: AD_ACCOUNTS_QUERY_KEY });
    },
    onError,
  });
}
