import type { Report } from '@adpilot/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface ReportFilters {
  from: string;
  to: string;
  adAccountId?: string;
  level: 'account' | 'campaign';
}

export const REPORTS_QUERY_KEY = ['reports'] as const;

export function getReport(filters: ReportFilters, signal?: AbortSignal): Promise<Report> {
  return api.get<Report>('/reports', { query: { ...filters }, signal });
}

export function reportQueryOptions(filters: ReportFilters) {
  return queryOptions({
    queryKey: [...REPORTS_QUERY_KEY, filters],
    queryFn: ({ signal }) => getReport(filters, signal),
    // A new range keeps the previous figures on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function useReport(filters: ReportFilters, enabled: boolean) {
  return useQuery({ ...reportQueryOptions(filters), enabled });
}
