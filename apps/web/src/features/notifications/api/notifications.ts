import type {
  ConfirmEmailRequest,
  NotificationChannel,
  NotificationSettings,
  NotificationTestResult,
  UpdateNotificationSettings,
} from '@adpilot/contracts';
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
    mutationFn: (channel: NotificationChannel) => api.post<NotificationTestResult>('/notifications/test', { channel }),
  });
}

/** Resend: a new confirmation link for the account's address; the answer is the settings with its state. */
export function useRequestVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<NotificationSettings>('/notifications/email/verification'),
    onSuccess: (settings) => queryClient.setQueryData(NOTIFICATIONS_QUERY_KEY, settings),
  });
}

/** The confirmation page: works signed out, so a 401 is an answer, not a session to refresh. */
export function useConfirmEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfirmEmailRequest) =>
      api.post<{ message: string }>('/email-verification/confirm', body, { retryOnUnauthorized: false }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY }),
  });
}
