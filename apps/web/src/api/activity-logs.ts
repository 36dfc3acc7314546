import type { ActivityLevel, ActivityType, LogList, LogStats } from '@adpilot/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, API_BASE } from '../lib/api-client.ts';
import { readWorkspaceChoice } from '../lib/current-workspace.ts';
import { downloadFile, queryString } from '../lib/download.ts';
import { localDay } from '../lib/format.ts';
import { readToken } from '../lib/session-storage.ts';

/*
 * The activity log is read by the Activity page and the dashboard, so its queries live here (ADR 0026).
 * Spec §9: page 1, 50 a page, the list cached 30 s and the previous page kept on screen while the next loads.
 */
export const LOGS_QUERY_KEY = ['logs'] as const;
export const LOGS_STALE_MS = 30_000;
export const LOGS_PAGE_SIZE = 50;

export interface LogFilterValues {
  level?: ActivityLevel | undefined;
  type?: ActivityType | undefined;
  adAccountId?: string | undefined;
  ruleId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  search?: string | undefined;
}

export interface LogPageParams extends LogFilterValues {
  page: number;
  limit: number;
  asOf?: number | undefined;
}

export function logsQueryOptions(params: LogPageParams) {
  return queryOptions({
    queryKey: [...LOGS_QUERY_KEY, 'list', params] as const,
    queryFn: ({ signal }) => api.get<LogList>('/logs', { query: { ...params }, signal }),
    staleTime: LOGS_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

export function logStatsQueryOptions(params: LogFilterValues & { tz?: string }) {
  return queryOptions({
    queryKey: [...LOGS_QUERY_KEY, 'stats', params] as const,
    queryFn: ({ signal }) => api.get<LogStats>('/logs/stats', { query: { ...params }, signal }),
    staleTime: LOGS_STALE_MS,
  });
}

export function deleteLogs(ids: string[]): Promise<{ deletedCount: number }> {
  return api.delete('/logs', { ids });
}

export function clearLogs(filters: LogFilterValues): Promise<{ deletedCount: number }> {
  const body = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value !== ''));
  return api.post('/logs/clear', body);
}

/** The export's file name, dated by the reader's local day: `adpilot-activity-2026-11-26.csv`. */
export function exportFileName(format: 'csv' | 'json', now: Date = new Date()): string {
  return `adpilot-activity-${localDay(0, now)}.${format}`;
}

/** Downloads the export as a file; the file is streamed by the server and saved by the browser. */
export function downloadLogs(format: 'csv' | 'json', filters: LogFilterValues): Promise<void> {
  // Named by the reader's own calendar day: the server's name uses its UTC day, a day off each evening in Bangkok.
  return downloadFile(`/logs/export?${queryString({ ...filters, format })}`, exportFileName(format));
}

/**
 * The live stream's address: EventSource sends no headers, so the token (redacted in logs) and the workspace ride in
 * the query.
 */
export function logStreamUrl(filters: LogFilterValues, lastEventId: number | undefined): string {
  const workspaceId = readWorkspaceChoice() ?? undefined;
  return `${API_BASE}/logs/stream?${queryString({ ...filters, token: readToken() ?? '', workspaceId, lastEventId })}`;
}
