import type { DiagnosticResult, DiagnosticsInfo, DiagnosticTest, Health } from '@adpilot/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { readToken } from '../../../lib/session-storage.ts';

/**
 * Once the instance has an administrator, diagnostics answer 401 to anyone signed out: for a visitor that is the
 * page's answer, not an ended session (no refresh, no trip to /login); a signed-in user still gets the refresh.
 */
const asVisitor = () => ({ retryOnUnauthorized: readToken() !== null });

/** Spec §9: the status indicator refreshes every 30 seconds. */
export const HEALTH_REFRESH_MS = 30_000;

export function useDiagnosticsInfo() {
  return useQuery({
    queryKey: ['diagnostics'],
    queryFn: ({ signal }) => api.get<DiagnosticsInfo>('/diagnostics', { signal, ...asVisitor() }),
    retry: false,
  });
}

/** The live status: /api/health, which answers 503 with the same body when the database is down. */
export function useHealth() {
  return useQuery({
    queryKey: ['health'],
    queryFn: ({ signal }) => api.get<Health>('/health', { signal }),
    refetchInterval: HEALTH_REFRESH_MS,
    refetchIntervalInBackground: true,
    staleTime: 0,
    retry: false,
  });
}

export function runDiagnostic(test: DiagnosticTest): Promise<DiagnosticResult> {
  return api.post<DiagnosticResult>(`/diagnostics/tests/${encodeURIComponent(test)}`, undefined, asVisitor());
}
