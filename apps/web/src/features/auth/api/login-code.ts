import type { z } from 'zod';
import type { loginCodeRequestSchema, messageResponseSchema } from '@adpilot/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

type LoginCodeRequest = z.infer<typeof loginCodeRequestSchema>;
type MessageResponse = z.infer<typeof messageResponseSchema>;

/**
 * A one-time sign-in code by e-mail, when the account's sign-in budget refused this browser (ADR 0087). A signed-out
 * call: a 401 is an answer to show. In a file of its own so it travels in the login page's chunk (ADR 0138).
 */
export function useRequestLoginCode() {
  return useMutation({
    mutationFn: (body: LoginCodeRequest) =>
      api.post<MessageResponse>('/auth/login-code', body, { retryOnUnauthorized: false }),
  });
}
