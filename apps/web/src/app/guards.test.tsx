import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildSession, mockApi, ok, renderApp, storeSession } from '../test/render-app.tsx';

describe('route guards', () => {
  it('sends a signed-out visitor of a guarded page to /login and back after signing in', async () => {
    const session = buildSession();
    mockApi({ 'POST /auth/login': ok(session) });
    const user = userEvent.setup();
    renderApp('/rules');
    expect(await screen.findByRole('heading', { name: 'Sign in to your account' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');

    await user.type(screen.getByLabelText('Email'), session.user.email);
    await user.type(screen.getByLabelText('Password'), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'กฎอัตโนมัติ' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/rules');
  });

  it.each(['/', '/login', '/register'])('sends a signed-in user from %s to the dashboard', async (path) => {
    const session = buildSession();
    storeSession(session);
    mockApi({ 'GET /auth/me': ok(session.user) });
    renderApp(path);
    expect(await screen.findByRole('heading', { name: `Welcome back, ${session.user.name}!` })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
  });

  it('shows a spinner while a stored token is checked and there is no user to show yet', async () => {
    localStorage.setItem('token', 'access-token');
    mockApi({ 'GET /auth/me': () => new Promise(() => undefined) });
    renderApp('/dashboard');
    expect(await screen.findByRole('status', { name: 'Loading...' })).toBeInTheDocument();
  });

  it('redirects an unknown path to the landing page', async () => {
    renderApp('/no-such-page');
    expect(
      await screen.findByRole('heading', { name: 'Automate Your Ad Campaigns with AI-Powered Rules' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('opens /test to anyone', async () => {
    renderApp('/test');
    expect(await screen.findByRole('heading', { name: 'Test Connection' })).toBeInTheDocument();
  });
});
