import type { CurrentSubscription, PlanId, UpgradeResponse } from '@adpilot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SUBSCRIPTION_QUERY_KEY } from '../../../api/subscription.ts';
import { api } from '../../../lib/api-client.ts';

interface Callbacks<T> {
  onSuccess?: (answer: T) => void;
  onError?: (error: Error) => void;
}

/** Spec §4: with a url the browser goes to it (Stripe Checkout); otherwise the plan changed and is read again. */
export function useUpgrade({ onSuccess, onError }: Callbacks<UpgradeResponse> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (planId: PlanId) => api.post<UpgradeResponse>('/subscription/upgrade', { planId }),
    onSuccess: async (answer) => {
      if (!answer.url) await queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
      onSuccess?.(answer);
    },
    onError,
  });
}

/** The Stripe billing portal (payment method, invoices): the answer is the address the browser goes to. */
export function useBillingPortal({ onSuccess, onError }: Callbacks<{ url: string }> = {}) {
  return useMutation({
    mutationFn: () => api.post<{ url: string }>('/subscription/portal'),
    onSuccess,
    onError,
  });
}

export function useCancelSubscription({ onSuccess, onError }: Callbacks<{ subscription: CurrentSubscription }> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ subscription: CurrentSubscription }>('/subscription/cancel'),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
      onSuccess?.(answer);
    },
    onError,
  });
}
