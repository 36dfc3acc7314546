import type { CurrentSubscription, Plan, UpgradeRequest, UpgradeResponse } from '@adpilot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SUBSCRIPTION_QUERY_KEY } from '../../../api/subscription.ts';
import { api } from '../../../lib/api-client.ts';

interface Callbacks<T> {
  onSuccess?: (answer: T) => void;
  onError?: (error: Error) => void;
}

/** The currency a page shows and charges in (ADR 0114): baht on a Thai page, dollars otherwise. */
export function pageCurrency(language: string): 'THB' | 'USD' {
  return language.startsWith('th') ? 'THB' : 'USD';
}

/** The plan's monthly price in `currency` (the plan table's set price, not a conversion). */
export function priceIn(plan: Plan, currency: 'THB' | 'USD'): number {
  return plan.prices.find((price) => price.currency === currency)?.amount ?? plan.price;
}

/**
 * Spec §4: with a url the browser goes to it (Stripe Checkout, or the invoice page PromptPay is paid on); otherwise
 * the plan changed and is read again.
 */
export function useUpgrade({ onSuccess, onError }: Callbacks<UpgradeResponse> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: UpgradeRequest) => api.post<UpgradeResponse>('/subscription/upgrade', request),
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
