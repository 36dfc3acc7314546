import { TOAST_DURATION_MS } from '@adpilot/contracts';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from 'react-hot-toast';
import { I18nextProvider } from 'react-i18next';
import { AuthProvider } from '../lib/auth.tsx';
import { i18n } from '../lib/i18n.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { ThemeProvider } from '../lib/theme-context.tsx';
import { useToastTop } from './toast-offset.ts';

const toastOptions = {
  duration: TOAST_DURATION_MS,
  className: 'dark:bg-gray-800! dark:text-gray-100!',
};

/**
 * Spec §9: top-right, 4 seconds; pushed down below the page's header so its actions stay clickable (ADR 0058).
 * A toast's words never take a click, only its links do: whatever lies under a toast, or beside it in the
 * full-width row the toaster lays each toast in, is still clicked (`.app-toaster` in index.css).
 */
function AppToaster() {
  const top = useToastTop();
  return (
    <Toaster
      position="top-right"
      toastOptions={toastOptions}
      containerClassName="app-toaster"
      containerStyle={{ top }}
    />
  );
}

interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass their own client so each starts with an empty cache. */
  queryClient?: QueryClient;
}

/** Everything a screen relies on except the router, which the caller picks (browser or memory). */
export function AppProviders({ children, queryClient }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <ThemeProvider>
          <AuthProvider>{children}</AuthProvider>
          <AppToaster />
        </ThemeProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
