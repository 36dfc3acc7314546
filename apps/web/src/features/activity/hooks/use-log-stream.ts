import type { ActivityLog } from '@adpilot/contracts';
import { useEffect, useRef, useState } from 'react';
import { logStreamUrl, type LogFilterValues } from '../../../api/activity-logs.ts';
import { refreshSession } from '../../../lib/api-client.ts';
import { authApi } from '../../../lib/auth-api.ts';
import { readToken } from '../../../lib/session-storage.ts';

export type LiveState = 'off' | 'connecting' | 'open' | 'error';

/** How long after a failure the stream tries again. */
export const STREAM_RETRY_MS = 2_000;

/** Seconds left on the stored access token (0 when it is missing or unreadable). */
function tokenSecondsLeft(): number {
  const payload = readToken()?.split('.')[1];
  if (!payload) return 0;
  try {
    const { exp } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number };
    return typeof exp === 'number' ? exp - Date.now() / 1000 : 0;
  } catch {
    return 0;
  }
}

interface LogStreamOptions {
  enabled: boolean;
  filters: LogFilterValues;
  /** Where the stream starts: after this seq (the list's snapshot), so nothing between the two is missed. */
  after: number | undefined;
  onEntry: (log: ActivityLog) => void;
  retryMs?: number;
}

/**
 * The live log (spec §7 Logs): an EventSource on /api/logs/stream. On any failure — the network, the server, or
 * the stream ending when the access token expires or the session ends — it shows "Connection error", refreshes the
 * token when it is (nearly) spent, checks the session, and reconnects by itself with `lastEventId`, so it resumes
 * after the last entry it received; a session that has ended signs the tab out instead.
 */
export function useLogStream({
  enabled,
  filters,
  after,
  onEntry,
  retryMs = STREAM_RETRY_MS,
}: LogStreamOptions): LiveState {
  const [state, setState] = useState<LiveState>('off');
  const onEntryRef = useRef(onEntry);
  onEntryRef.current = onEntry;
  const filtersKey = JSON.stringify(filters);
  const ready = after !== undefined;

  useEffect(() => {
    if (!enabled || !ready) {
      setState(enabled ? 'connecting' : 'off');
      return;
    }
    const streamFilters = JSON.parse(filtersKey) as LogFilterValues;
    let lastId = after;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const connect = () => {
      source = new EventSource(logStreamUrl(streamFilters, lastId));
      source.onopen = () => setState('open');
      source.onmessage = (event: MessageEvent<string>) => {
        try {
          const log = JSON.parse(event.data) as ActivityLog;
          lastId = Number(event.lastEventId) || log.seq;
          onEntryRef.current(log);
        } catch (error) {
          // Spec §8: a message that cannot be read is reported to the console only.
          console.error('Could not read a log entry', error);
        }
      };
      source.onerror = () => {
        source?.close();
        if (stopped) return;
        setState('error');
        timer = setTimeout(() => {
          void (async () => {
            if (tokenSecondsLeft() < 30) await refreshSession();
            // The server also ends a stream whose session ended (a sign-out elsewhere, a password reset), and
            // EventSource cannot tell a 401 from a network failure: one API call says which, and signs this tab
            // out when the session is over instead of reconnecting into 401s until the token expires.
            await authApi.me().catch(() => undefined);
            if (!stopped && readToken()) connect();
          })();
        }, retryMs);
      };
    };
    setState('connecting');
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
    // `after` only seeds a new connection; a later list refresh must not restart a running stream.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, ready, filtersKey, retryMs]);

  return enabled ? state : 'off';
}
