import type { OutboxMail } from '@adpilot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const OUTBOX_QUERY_KEY = ['admin', 'outbox'] as const;

/** How many of the newest mails the administrator's view reads. */
export const OUTBOX_LIMIT = 50;

export function outboxQueryOptions() {
  return queryOptions({
    queryKey: OUTBOX_QUERY_KEY,
    queryFn: ({ signal }) => api.get<OutboxMail[]>('/admin/outbox', { signal, query: { limit: OUTBOX_LIMIT } }),
  });
}

/** The mail the instance holds instead of sending it (no SMTP server): the administrator's only. */
export const useOutbox = () => useQuery(outboxQueryOptions());
