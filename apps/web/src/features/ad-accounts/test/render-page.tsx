import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { Toaster } from 'react-hot-toast';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation, useNavigate, type NavigateFunction } from 'react-router';
import { vi } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { AdAccountsPage } from '../components/ad-accounts-page.tsx';

/** Shows the current address and hands the router's navigate to the test (a link clicked elsewhere in the app). */
function AddressProbe({ onNavigate }: { onNavigate: (navigate: NavigateFunction) => void }) {
  const { pathname, search } = useLocation();
  onNavigate(useNavigate());
  return <output data-testid="address">{`${pathname}${search}`}</output>;
}

/** jsdom has no matchMedia; the Toaster asks it whether the user prefers reduced motion. */
function ensureMatchMedia() {
  if (typeof window.matchMedia === 'function') return;
  vi.stubGlobal('matchMedia', (media: string) => ({
    matches: false,
    media,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }));
}

/** The page as the router mounts it, in StrictMode like the app, with a fresh cache and a visible address. */
export function renderAdAccountsPage(address = '/ad-accounts') {
  ensureMatchMedia();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const user = userEvent.setup();
  let navigate: NavigateFunction = () => {
    throw new Error('The router has not rendered yet');
  };
  render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[address]}>
            <Routes>
              <Route path="/ad-accounts" element={<AdAccountsPage />} />
            </Routes>
            <AddressProbe
              onNavigate={(current) => {
                navigate = current;
              }}
            />
          </MemoryRouter>
          <Toaster />
        </QueryClientProvider>
      </I18nextProvider>
    </StrictMode>,
  );
  return { user, queryClient, navigate: (to: string) => navigate(to) };
}
