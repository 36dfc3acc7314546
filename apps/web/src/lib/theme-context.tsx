import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { applyTheme, readInitialTheme, readStoredTheme, storeTheme, watchSystemTheme, type Theme } from './theme.ts';

interface ThemeContextValue {
  theme: Theme;
  toggleTheme: () => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setTheme] = useState<Theme>(readInitialTheme);

  useEffect(() => applyTheme(theme), [theme]);

  // Until the user picks a theme, the app keeps following the system setting as it changes.
  useEffect(
    () =>
      watchSystemTheme((systemTheme) => {
        if (!readStoredTheme()) setTheme(systemTheme);
      }),
    [],
  );

  const toggleTheme = useCallback(() => {
    const next = theme === 'dark' ? 'light' : 'dark';
    storeTheme(next);
    setTheme(next);
  }, [theme]);

  const value = useMemo(() => ({ theme, toggleTheme }), [theme, toggleTheme]);
  return <ThemeContext value={value}>{children}</ThemeContext>;
}

export function useTheme(): ThemeContextValue {
  const context = use(ThemeContext);
  if (!context) throw new Error('useTheme must be used inside <ThemeProvider>');
  return context;
}
