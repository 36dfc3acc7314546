import { useSyncExternalStore } from 'react';

/** Below Tailwind's `md` breakpoint a page lays out for a phone (ADR 0059). */
export const NARROW_QUERY = '(max-width: 767.98px)';

/**
 * Whether a media query matches now, re-rendering when it changes. Where the browser cannot answer (jsdom without a
 * stub) it answers false, so the layout tests see is the wide one unless they ask for a narrow screen.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = typeof window.matchMedia === 'function' ? window.matchMedia(query) : undefined;
      list?.addEventListener?.('change', onChange);
      return () => list?.removeEventListener?.('change', onChange);
    },
    () => (typeof window.matchMedia === 'function' ? Boolean(window.matchMedia(query)?.matches) : false),
  );
}
