import { useLayoutEffect, useState } from 'react';
import { useToasterStore } from 'react-hot-toast';

/** The toaster's own distance from the window's edge (react-hot-toast's default inset). */
export const TOAST_EDGE_PX = 16;
const GAP_PX = 8;

/**
 * The top of the toast column: below every header in the top third of the window (the app's top bar on small
 * screens, the page's header with its primary actions), so a toast never covers "Create rule", "Run now" or the menu;
 * at the window's edge once those have scrolled away. Measured while a toast shows, and on scroll and resize.
 */
export function useToastTop(): number {
  const { toasts } = useToasterStore();
  const showing = toasts.some((item) => item.visible);
  const [top, setTop] = useState(TOAST_EDGE_PX);

  useLayoutEffect(() => {
    if (!showing) return;
    const measure = () => {
      let bottom = 0;
      for (const header of document.querySelectorAll('header')) {
        const box = header.getBoundingClientRect();
        if (box.height > 0 && box.bottom > 0 && box.top < window.innerHeight / 3) bottom = Math.max(bottom, box.bottom);
      }
      setTop(Math.max(TOAST_EDGE_PX, Math.ceil(bottom) + GAP_PX));
    };
    measure();
    window.addEventListener('scroll', measure, { passive: true });
    window.addEventListener('resize', measure);
    return () => {
      window.removeEventListener('scroll', measure);
      window.removeEventListener('resize', measure);
    };
  }, [showing]);

  return top;
}
