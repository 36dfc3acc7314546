import type { DemoSession, LoginRequest, RegisterRequest, Session, User } from '@adpilot/contracts';
import { api } from './api-client.ts';

// Credentials calls answer 401 for a wrong password; that must not trigger the refresh-and-sign-out dance.
// None is about a workspace: a workspace left meanwhile must not make the session look refused.
const noRetry = { retryOnUnauthorized: false, workspace: false } as const;
const userCall = { workspace: false } as const;

export const authApi = {
  login: (credentials: LoginRequest) => api.post<Session>('/auth/login', credentials, noRetry),
  register: (body: RegisterRequest) => api.post<Session>('/auth/register', body, noRetry),
  /** Watch Demo (ADR 0185): a read-only demo session, no sign-up. */
  demo: () => api.post<DemoSession>('/demo/session', undefined, noRetry),
  me: () => api.get<User>('/auth/me', userCall),
  logout: (refreshToken: string | null) =>
    api.post<unknown>('/auth/logout', refreshToken ? { refreshToken } : {}, noRetry),
};
