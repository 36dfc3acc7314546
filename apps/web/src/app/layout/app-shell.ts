import { lazyPage } from '../lazy-page.ts';

/**
 * The signed-in shell, loaded on first use: its sidebar, notifications dialog and their schemas stay out of the
 * landing and sign-in pages' first download (ADR 0056).
 */
export const AppLayout = lazyPage(() => import('./app-layout.tsx'), 'AppLayout');
