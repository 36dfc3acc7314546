import type { z } from 'zod';
import type {
  forgotPasswordRequestSchema,
  messageResponseSchema,
  resetPasswordRequestSchema,
} from '@adpilot/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;
type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;
type MessageResponse = z.infer<typeof messageResponseSchema>;

// Signed-out calls: a 401 here is an answer to show, not a session to refresh.
const noRetry = { retryOnUnauthorized: false } as const;

export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordRequest) => api.post<MessageResponse>('/auth/forgot-password', body, noRetry),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordRequest) => api.post<MessageResponse>('/auth/reset-password', body, noRetry),
  });
}
