import type { CurrentSubscription, Plan } from '@adpilot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client.ts';

/*
 * The user's plan and the plan catalogue are read by more than one feature (the Subscription page, the rule builder's
 * schedule), so their queries live here: one key, one fetcher each (ADR 0026). A plan change invalidates the key.
 */
export const SUBSCRIPTION_QUERY_KEY = ['subscription'] as const;

export function currentSubscriptionQueryOptions() {
  return queryOptions({
    queryKey: [...SUBSCRIPTION_QUERY_KEY, 'current'] as const,
    queryFn: ({ signal }) => api.get<CurrentSubscription>('/subscription/current', { signal }),
  });
}

export function plansQueryOptions() {
  return queryOptions({
    queryKey: [...SUBSCRIPTION_QUERY_KEY, 'plans'] as const,
    queryFn: ({ signal }) => api.get<Plan[]>('/subscription/plans', { signal }),
  });
}

export const useCurrentSubscription = () => useQuery(currentSubscriptionQueryOptions());
export const usePlans = () => useQuery(plansQueryOptions());

/**
 * The shortest "every N minutes" the user's plan lets an active rule run at, once the plan and the catalogue are
 * read; undefined until then (or if either cannot be read), when nothing should be held back.
 */
export function useFastestCheckMinutes(): number | undefined {
  const current = useCurrentSubscription();
  const plans = usePlans();
  const plan = plans.data?.find((candidate) => candidate.id === current.data?.plan);
  return plan?.limits.fastestCheckMinutes;
}

/**
 * The user's plan and how far back it lets a rule be backtested, once both queries are read; undefined until then
 * (or if either cannot be read), when the page's own default stands.
 */
export function usePlanBacktestDays(): { plan: Plan; days: number } | undefined {
  const current = useCurrentSubscription();
  const plans = usePlans();
  const plan = plans.data?.find((candidate) => candidate.id === current.data?.plan);
  return plan ? { plan, days: plan.limits.backtestDays } : undefined;
}
