import { renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../app/providers.tsx';
import { buildSession, buildUser, fail, mockApi, ok, renderApp, storeSession } from '../test/render-app.tsx';
import { REFRESH_ERRORS, useAuth } from './auth.tsx';

describe('session', () => {
  it('shows the stored user at once, then the one the server returns', async () => {
    const session = buildSession(buildUser({ name: 'Stored Name' }));
    storeSession(session);
    let answer = () => undefined as void;
    const serverAnswered = new Promise<void>((resolve) => (answer = resolve));
    mockApi({ 'GET /auth/me': () => serverAnswered.then(() => ok({ ...session.user, name: 'Fresh Name' })) });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Welcome back, Stored Name!' })).toBeInTheDocument();
    answer();
    expect(await screen.findByRole('heading', { name: 'Welcome back, Fresh Name!' })).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ name: 'Fresh Name' });
  });

  it('signs out and opens /login when the server rejects the stored session', async () => {
    storeSession();
    mockApi({
      'GET /auth/me': fail(401, 'UNAUTHORIZED', 'Unauthorized'),
      'POST /auth/refresh': fail(401, 'UNAUTHORIZED', 'Refresh token expired'),
    });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Sign in to your account' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('keeps the session when the server cannot be reached', async () => {
    const session = buildSession();
    storeSession(session);
    mockApi({ 'GET /auth/me': fail(503, 'SERVICE_UNAVAILABLE', 'Down') });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: `Welcome back, ${session.user.name}!` })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe(session.token);
  });

  it('logs out even when the server call fails, then shows the landing page', async () => {
    storeSession();
    const fetchMock = mockApi({
      'GET /auth/me': ok(buildUser()),
      'POST /auth/logout': fail(500, 'INTERNAL_ERROR', 'boom'),
    });
    const user = userEvent.setup();
    renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    const logoutCall = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(logoutCall?.[1]?.body))).toEqual({ refreshToken: 'refresh-token' });
  });
});

describe('refreshAccessToken', () => {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter>
      <AppProviders>{children}</AppProviders>
    </MemoryRouter>
  );

  it('needs a stored refresh token', async () => {
    const { result } = renderHook(() => useAuth(), { wrapper });
    await expect(result.current.refreshAccessToken()).rejects.toThrow(REFRESH_ERRORS.missing);
  });

  it('fails when the server gives no new token', async () => {
    localStorage.setItem('refreshToken', 'refresh-token');
    mockApi({ 'POST /auth/refresh': ok(null) });
    const { result } = renderHook(() => useAuth(), { wrapper });
    await expect(result.current.refreshAccessToken()).rejects.toThrow(REFRESH_ERRORS.failed);
  });

  it('returns the new access token', async () => {
    localStorage.setItem('refreshToken', 'refresh-token');
    mockApi({ 'POST /auth/refresh': ok({ token: 'new-access', refreshToken: 'new-refresh' }) });
    const { result } = renderHook(() => useAuth(), { wrapper });
    await expect(result.current.refreshAccessToken()).resolves.toBe('new-access');
    expect(localStorage.getItem('refreshToken')).toBe('new-refresh');
  });
});
