import type { LoginRequest, RegisterRequest, Session, User } from '@adpilot/contracts';
import { api } from './api-client.ts';

// Credentials calls answer 401 for a wrong password; that must not trigger the refresh-and-sign-out dance.
const noRetry = { retryOnUnauthorized: false } as const;

export const authApi = {
  login: (credentials: LoginRequest) => api.post<Session>('/auth/login', credentials, noRetry),
  register: (body: RegisterRequest) => api.post<Session>('/auth/register', body, noRetry),
  me: () => api.get<User>('/auth/me'),
  logout: (refreshToken: string | null) =>
    api.post<unknown>('/auth/logout', refreshToken ? { refreshToken } : {}, noRetry),
};
