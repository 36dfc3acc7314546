import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ThemeToggle } from '../components/theme-toggle.tsx';
import { stubMatchMedia } from '../test/match-media.ts';
import { ThemeProvider } from './theme-context.tsx';
import { readInitialTheme } from './theme.ts';

describe('initial theme', () => {
  it('follows the system preference when nothing is stored', () => {
    stubMatchMedia(true);
    expect(readInitialTheme()).toBe('dark');
    stubMatchMedia(false);
    expect(readInitialTheme()).toBe('light');
  });

  it('prefers the stored choice over the system', () => {
    stubMatchMedia(true);
    localStorage.setItem('theme', 'light');
    expect(readInitialTheme()).toBe('light');
  });

  it('ignores a stored value that is not a theme', () => {
    stubMatchMedia(true);
    localStorage.setItem('theme', 'purple');
    expect(readInitialTheme()).toBe('dark');
  });
});

describe('ThemeToggle', () => {
  it('switches the dark class on <html> and stores the choice', async () => {
    const user = userEvent.setup();
    render(
      <ThemeProvider>
        <ThemeToggle />
      </ThemeProvider>,
    );
    expect(document.documentElement).not.toHaveClass('dark');
    await user.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    await user.click(screen.getByRole('button', { name: 'Switch to light theme' }));
    expect(document.documentElement).not.toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('light');
  });
});
