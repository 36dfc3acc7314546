import type { authUrlResponseSchema } from '@adpilot/contracts';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

export type FacebookAuthUrlResponse = z.infer<typeof authUrlResponseSchema>;

export function getFacebookAuthUrl(): Promise<FacebookAuthUrlResponse> {
  return api.get<FacebookAuthUrlResponse>('/ad-accounts/facebook/auth-url');
}

/**
 * A mutation although the call is a GET: every call mints a fresh single-use OAuth state on the server,
 * so the answer must never be cached, shared or retried behind the user's back.
 */
export function useFacebookAuthUrl() {
  return useMutation({ mutationFn: getFacebookAuthUrl });
}
