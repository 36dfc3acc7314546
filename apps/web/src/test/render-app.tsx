import type { Session, User } from '@adpilot/contracts';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '../app/providers.tsx';
import { AppRoutes } from '../app/routes.tsx';
import { storeTokens, storeUser } from '../lib/session-storage.ts';

export function buildUser(overrides: Partial<User> = {}): User {
  return {
    id: '0b3a6f4e-5d1c-4c1e-9f0a-1d2e3f4a5b6c',
    name: 'Test Advertiser',
    email: 'advertiser@example.com',
    role: 'user',
    createdAt: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function buildSession(user: User = buildUser()): Session {
  return { token: 'access-token', refreshToken: 'refresh-token', user };
}

/** Puts a session in local storage, as a previous visit would have left it. */
export function storeSession(session: Session = buildSession()): void {
  storeTokens(session.token, session.refreshToken);
  storeUser(session.user);
}

interface MockResponse {
  status?: number;
  body: unknown;
}

type Handler = MockResponse | ((body: unknown, url: URL) => MockResponse | Promise<MockResponse>);

/**
 * Stubs fetch with answers keyed by "METHOD /path" (without /api). A call nobody expected fails the
 * test loudly; a handler returning a promise controls when the answer arrives; a handler gets the body and the URL.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname.replace(/^\/api/, '')}`;
    const handler = handlers[key];
    if (!handler) throw new Error(`Unexpected API call: ${key}`);
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    const { status = 200, body: answer } = typeof handler === 'function' ? await handler(body, url) : handler;
    return new Response(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export function ok(data: unknown): MockResponse {
  return { body: { success: true, data } };
}

export function fail(status: number, code: string, message: string): MockResponse {
  return { status, body: { success: false, code, message } };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** The whole app (providers and route table) at `path`, with a probe showing the current address. */
export function renderApp(path = '/') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MemoryRouter initialEntries={[path]} useTransitions={false}>
      <AppProviders queryClient={queryClient}>
        <AppRoutes />
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );
}
