import { STORAGE_KEYS, type User } from '@adpilot/contracts';
import { forgetWorkspaceChoice } from './current-workspace.ts';

/** The session lives in local storage under the spec's keys (token, refreshToken, user). */
export function readToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.token);
}

export function readRefreshToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.refreshToken);
}

export function readStoredUser(): User | null {
  const raw = localStorage.getItem(STORAGE_KEYS.user);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as User;
  } catch {
    return null;
  }
}

export function storeTokens(token: string, refreshToken?: string): void {
  localStorage.setItem(STORAGE_KEYS.token, token);
  if (refreshToken) localStorage.setItem(STORAGE_KEYS.refreshToken, refreshToken);
}

export function storeUser(user: User): void {
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
}

export function clearStoredSession(): void {
  localStorage.removeItem(STORAGE_KEYS.token);
  localStorage.removeItem(STORAGE_KEYS.refreshToken);
  localStorage.removeItem(STORAGE_KEYS.user);
  forgetWorkspaceChoice();
}
