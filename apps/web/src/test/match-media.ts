import { vi } from 'vitest';

/** jsdom has no matchMedia; toasts and the theme ask it, and pages ask whether the screen is a phone's. */
export function stubMatchMedia(prefersDark: boolean, { narrow = false }: { narrow?: boolean } = {}): void {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: (prefersDark && query.includes('dark')) || (narrow && query.includes('max-width')),
      media: query,
      onchange: null,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      addListener: vi.fn(),
      removeListener: vi.fn(),
      dispatchEvent: vi.fn(),
    })),
  );
}
