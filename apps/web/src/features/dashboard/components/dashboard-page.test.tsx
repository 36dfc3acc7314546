import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildSession, mockApi, ok, renderApp, storeSession } from '../../../test/render-app.tsx';

describe('DashboardPage', () => {
  it('greets the user and shows the summary, activity and quick actions', async () => {
    const session = buildSession();
    storeSession(session);
    mockApi({ 'GET /auth/me': ok(session.user), 'GET /ad-accounts': ok([]) });
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: `Welcome back, ${session.user.name}!` })).toBeInTheDocument();
    expect(screen.getByText("Here's an overview of your ad automation performance.")).toBeInTheDocument();
    for (const label of ['Active Rules', 'Actions Today', 'Total Actions']) {
      expect(screen.getByText(label)).toBeInTheDocument();
    }
    expect(screen.getByText('No recent activity to display.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Connect Ad Account/ })).toHaveAttribute('href', '/ad-accounts?connect=1');
    expect(screen.getByRole('link', { name: /Create Rule/ })).toHaveAttribute('href', '/rules');
    expect(screen.getByRole('link', { name: /View Reports/ })).toHaveAttribute('href', '/activity');
  });

  it('counts the connected ad accounts', async () => {
    const session = buildSession();
    storeSession(session);
    mockApi({ 'GET /auth/me': ok(session.user), 'GET /ad-accounts': ok([{ id: 'a' }, { id: 'b' }]) });
    renderApp('/dashboard');
    await screen.findByText('2');
    const label = screen.getAllByText('Ad Accounts').find((element) => element.tagName === 'P');
    expect(label?.nextElementSibling?.textContent).toBe('2');
  });
});
