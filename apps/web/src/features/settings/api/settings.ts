import type {
  ConnectionResult,
  ConnectionService,
  ConnectionStatusMap,
  SettingsUpdate,
  SettingsView,
} from '@adpilot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const SETTINGS_QUERY_KEY = ['settings'] as const;
export const CONNECTIONS_QUERY_KEY = ['settings', 'connections'] as const;

export function getSettings(signal?: AbortSignal): Promise<SettingsView> {
  return api.get<SettingsView>('/settings', { signal });
}

export function settingsQueryOptions() {
  return queryOptions({ queryKey: SETTINGS_QUERY_KEY, queryFn: ({ signal }) => getSettings(signal), retry: false });
}

export function useSettings(enabled: boolean) {
  return useQuery({ ...settingsQueryOptions(), enabled });
}

/** Spec §7: the status map, checked again after every save. */
export function useConnectionStatuses(enabled: boolean) {
  return useQuery({
    queryKey: CONNECTIONS_QUERY_KEY,
    queryFn: ({ signal }) => api.get<ConnectionStatusMap>('/settings/test-connections', { signal }),
    enabled,
    retry: false,
  });
}

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsUpdate) => api.put<SettingsView>('/settings', body),
    onSuccess: (view) => {
      queryClient.setQueryData(SETTINGS_QUERY_KEY, view);
      void queryClient.invalidateQueries({ queryKey: CONNECTIONS_QUERY_KEY });
    },
  });
}

export function useTestConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (service: ConnectionService) =>
      api.post<ConnectionResult>(`/settings/test-connection/${encodeURIComponent(service)}`),
    onSuccess: (result) => {
      queryClient.setQueryData<ConnectionStatusMap>(CONNECTIONS_QUERY_KEY, (map) =>
        map ? { ...map, [result.service]: result.status } : map,
      );
    },
  });
}
