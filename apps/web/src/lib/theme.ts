import { STORAGE_KEYS } from '@adpilot/contracts';

export type Theme = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function readStoredTheme(): Theme | null {
  const stored = localStorage.getItem(STORAGE_KEYS.theme);
  return stored === 'light' || stored === 'dark' ? stored : null;
}

export function readSystemTheme(): Theme {
  return window.matchMedia?.(DARK_QUERY).matches ? 'dark' : 'light';
}

/** Spec §2: the stored choice, otherwise the system preference. */
export function readInitialTheme(): Theme {
  return readStoredTheme() ?? readSystemTheme();
}

/** The `dark` class on <html> drives Tailwind's dark variant. */
export function applyTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  document.documentElement.style.colorScheme = theme;
}

export function storeTheme(theme: Theme): void {
  localStorage.setItem(STORAGE_KEYS.theme, theme);
}

/** Calls back when the system preference changes; returns the unsubscribe function. */
export function watchSystemTheme(onChange: (theme: Theme) => void): () => void {
  const query = window.matchMedia?.(DARK_QUERY);
  if (!query) return () => undefined;
  const listener = (event: MediaQueryListEvent) => onChange(event.matches ? 'dark' : 'light');
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}
