import type { NotificationSettings, NotificationTestResult, UpdateNotificationSettings } from '@adpilot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const NOTIFICATIONS_QUERY_KEY = ['notifications'] as const;

type Saved = NotificationSettings & { webhookSecret?: string };

export function useNotificationSettings(enabled: boolean) {
  return useQuery({
    queryKey: NOTIFICATIONS_QUERY_KEY,
    queryFn: ({ signal }) => api.get<NotificationSettings>('/notifications', { signal }),
    enabled,
  });
}

export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateNotificationSettings) => api.put<Saved>('/notifications', body),
    onSuccess: ({ webhookSecret: _secret, ...settings }) => queryClient.setQueryData(NOTIFICATIONS_QUERY_KEY, settings),
  });
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ webhookSecret: string }>('/notifications/webhook/secret'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY }),
  });
}

export function useSendTestNotification() {
  return useMutation({
    mutationFn: (channel: 'email' | 'webhook') => api.post<NotificationTestResult>('/notifications/test', { channel }),
  });
}
