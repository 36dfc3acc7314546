import { useSyncExternalStore } from 'react';

/**
 * The workspace this tab works in (ADR 0070). The choice is per tab, so two tabs can show two clients side by side:
 * it lives in session storage, which survives a reload of the tab. Local storage keeps the last choice of any tab,
 * only as the seed of a new tab. No choice means the user's personal workspace, which the server picks by itself.
 */
export const WORKSPACE_STORAGE_KEY = 'workspaceId';

const listeners = new Set<() => void>();

export function readWorkspaceChoice(): string | null {
  const own = sessionStorage.getItem(WORKSPACE_STORAGE_KEY);
  if (own) return own;
  const seed = localStorage.getItem(WORKSPACE_STORAGE_KEY);
  // Taken over at once, so another tab's later choice does not move this one.
  if (seed) sessionStorage.setItem(WORKSPACE_STORAGE_KEY, seed);
  return seed;
}

/** Chooses the workspace of this tab (null: the personal one) and seeds the next tab with it. */
export function chooseWorkspace(id: string | null): void {
  if (id) {
    sessionStorage.setItem(WORKSPACE_STORAGE_KEY, id);
    localStorage.setItem(WORKSPACE_STORAGE_KEY, id);
  } else {
    sessionStorage.removeItem(WORKSPACE_STORAGE_KEY);
    localStorage.removeItem(WORKSPACE_STORAGE_KEY);
  }
  for (const listener of listeners) listener();
}

/** Signing out forgets the choice: the next person to sign in here has other workspaces. */
export function forgetWorkspaceChoice(): void {
  sessionStorage.removeItem(WORKSPACE_STORAGE_KEY);
  localStorage.removeItem(WORKSPACE_STORAGE_KEY);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The chosen workspace's id (null: personal), re-rendering when this tab chooses another. */
export function useWorkspaceChoice(): string | null {
  return useSyncExternalStore(subscribe, readWorkspaceChoice);
}
