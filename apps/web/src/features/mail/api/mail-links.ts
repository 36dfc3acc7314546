import type { MailConsent, MailLinkInput, MailLinkPreview } from '@adpilot/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

// Public and about no workspace: the signed token in the mailed link is the only authority (ADR 0092).
const publicCall = { workspace: false, retryOnUnauthorized: false } as const;

export function useMailLink(token: string | null) {
  return useQuery({
    queryKey: ['mail-link', token] as const,
    queryFn: ({ signal }) => api.get<MailLinkPreview>('/mail/link', { signal, query: { token }, ...publicCall }),
    enabled: Boolean(token),
    retry: false,
  });
}

export function useAnswerMailLink(purpose: 'confirm' | 'unsubscribe') {
  return useMutation({
    mutationFn: (body: MailLinkInput) => api.post<MailConsent>(`/mail/${purpose}`, body, publicCall),
  });
}
