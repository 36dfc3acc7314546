import type { ReportOverview } from '@adpilot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const OVERVIEW_DAYS = 30;
export const OVERVIEW_QUERY_KEY = ['reports', 'overview'] as const;

/**
 * The dashboard's one read: the last 30 local days ending `today` (the ad accounts' today, ADR 0131) and that
 * month's rule totals.
 */
export function overviewQueryOptions(today: string | undefined) {
  return queryOptions({
    enabled: today !== undefined,
    queryKey: [...OVERVIEW_QUERY_KEY, OVERVIEW_DAYS, today],
    queryFn: ({ signal }) =>
      api.get<ReportOverview>('/reports/overview', { query: { days: OVERVIEW_DAYS, to: today }, signal }),
    staleTime: 60_000,
  });
}

export function useOverview(today: string | undefined) {
  return useQuery(overviewQueryOptions(today));
}
