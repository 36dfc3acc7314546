import type { EntityExportFormat, EntityWindow } from '@adpilot/contracts';
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { downloadFile, queryString } from '../../../lib/download.ts';
import { localDay } from '../../../lib/format.ts';
import { ENTITIES_QUERY_KEY } from '../../../api/entities.ts';
import type { EntityActionItem, EntityActionResult, EntityDetail, EntityLevel, EntityList } from './types.ts';

export { ENTITIES_QUERY_KEY };
/** Rows asked for at a time; the table asks for the next page as its end scrolls near. */
export const ENTITIES_PAGE_SIZE = 200;

export interface EntityWindowQuery {
  window?: EntityWindow | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface EntityFilters extends EntityWindowQuery {
  level: EntityLevel;
  sort: string;
  adAccountId?: string | undefined;
  parentId?: string | undefined;
  /** Effective statuses, comma-separated. */
  status?: string | undefined;
  q?: string | undefined;
}

export function getEntities(filters: EntityFilters, cursor: string | undefined, signal?: AbortSignal) {
  return api
    .getBody<EntityList & { success: true }>('/entities', {
      query: { ...filters, limit: ENTITIES_PAGE_SIZE, cursor },
      signal,
    })
    .then(({ success: _success, ...list }) => list as EntityList);
}

/** The list, page after page (cursor), the previous filters' rows kept on screen while new ones load. */
export function entitiesQueryOptions(filters: EntityFilters) {
  return infiniteQueryOptions({
    queryKey: [...ENTITIES_QUERY_KEY, 'list', filters] as const,
    queryFn: ({ pageParam, signal }) => getEntities(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

/** The ad sets of a campaign, or the ads of an ad set, as an expanded row shows them (first page). */
export function childrenQueryOptions(parentId: string, level: EntityLevel, filters: EntityFilters) {
  const childFilters: EntityFilters = { ...filters, level, parentId, q: undefined, status: undefined };
  return queryOptions({
    queryKey: [...ENTITIES_QUERY_KEY, 'children', childFilters] as const,
    queryFn: ({ signal }) => getEntities(childFilters, undefined, signal),
  });
}

export function entityQueryOptions(id: string, range: EntityWindowQuery) {
  return queryOptions({
    queryKey: [...ENTITIES_QUERY_KEY, 'detail', id, range] as const,
    queryFn: ({ signal }) =>
      api.get<EntityDetail>(`/entities/${encodeURIComponent(id)}`, { query: { ...range }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** What the confirmed changes would do, read live by the server and written nowhere: the confirmation's figures. */
export function previewEntityActions(items: EntityActionItem[]): Promise<EntityActionResult[]> {
  return api.post<EntityActionResult[]>('/entities/actions', { items, dryRun: true });
}

/** Sends the confirmed changes; every list and page of entities is read again after (the figures moved). */
export function useEntityActions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (items: EntityActionItem[]) => api.post<EntityActionResult[]>('/entities/actions', { items }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ENTITIES_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ['logs'] });
    },
  });
}

/** `adpilot-campaigns-2026-11-26.csv`: named by the reader's local day. */
export function entitiesFileName(format: EntityExportFormat, level: EntityLevel, now: Date = new Date()): string {
  const name = level === 'campaign' ? 'campaigns' : level === 'adset' ? 'ad-sets' : 'ads';
  return `adpilot-${name}-${localDay(0, now)}.${format}`;
}

/** Downloads the table as shown (the list's query and the chosen metric columns) as CSV or XLSX. */
export function downloadEntities(
  format: EntityExportFormat,
  filters: EntityFilters,
  columns: readonly string[],
): Promise<void> {
  const { parentId: _parentId, ...shown } = filters;
  return downloadFile(
    `/entities/export?${queryString({ ...shown, format, columns: columns.join(',') })}`,
    entitiesFileName(format, filters.level),
  );
}

/** Sets an action's previous value back (the ledger's revert route, the same for rules' and manual actions). */
export function useRevertAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (actionId: string) => api.post<unknown>(`/rules/actions/${encodeURIComponent(actionId)}/revert`),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ENTITIES_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ['logs'] });
    },
  });
}
