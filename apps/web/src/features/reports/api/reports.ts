import type { Report } from '@adpilot/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { downloadFile, queryString } from '../../../lib/download.ts';
import { localDay } from '../../../lib/format.ts';

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

export type ReportExportFormat = 'csv' | 'xlsx';

/** The export's file name, dated by the reader's local day: `adpilot-report-2026-11-26.xlsx`. */
export function reportFileName(format: ReportExportFormat, now: Date = new Date()): string {
  return `adpilot-report-${localDay(0, now)}.${format}`;
}

/** Downloads the Reports table (the page's query) as CSV or XLSX. */
export function downloadReport(format: ReportExportFormat, filters: ReportFilters): Promise<void> {
  return downloadFile(`/reports/export?${queryString({ ...filters, format })}`, reportFileName(format));
}
