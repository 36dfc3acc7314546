import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, type ReactElement } from 'react';
import { Toaster } from 'react-hot-toast';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { ContentLanguage } from '../../../lib/content-language.tsx';
import { i18n } from '../../../lib/i18n.ts';

function AddressProbe() {
  const { pathname } = useLocation();
  return <output data-testid="address">{pathname}</output>;
}

/**
 * One rules screen as the router mounts it: inside the route's ContentLanguage (Thai until the user picks a
 * language), in StrictMode, with a fresh cache and the current address visible.
 */
export function renderRulesRoute(path: string, pattern: string, element: ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const user = userEvent.setup();
  render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path={pattern} element={<ContentLanguage fallback="th">{element}</ContentLanguage>} />
              <Route path="*" element={null} />
            </Routes>
            <AddressProbe />
          </MemoryRouter>
          <Toaster />
        </QueryClientProvider>
      </I18nextProvider>
    </StrictMode>,
  );
  return { user, queryClient };
}
