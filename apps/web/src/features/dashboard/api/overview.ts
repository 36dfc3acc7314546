import type { ReportOverview } from '@adpilot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { localDay } from '../../../lib/format.ts';

export const OVERVIEW_DAYS = 30;
export const OVERVIEW_QUERY_KEY = ['reports', 'overview'] as const;

/** The dashboard's one read: the last 30 local days (ending the reader's today) and this month's rule totals. */
export function overviewQueryOptions(today: string = localDay(0)) {
  return queryOptions({
    queryKey: [...OVERVIEW_QUERY_KEY, OVERVIEW_DAYS, today],
    queryFn: ({ signal }) =>
      api.get<ReportOverview>('/reports/overview', { query: { days: OVERVIEW_DAYS, to: today }, signal }),
    staleTime: 60_000,
  });
}

export function useOverview() {
  return useQuery(overviewQueryOptions());
}
