import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildSession, mockApi, ok, renderApp, storeSession } from '../../test/render-app.tsx';

function signIn() {
  const session = buildSession();
  storeSession(session);
  mockApi({ 'GET /auth/me': ok(session.user), 'GET /ad-accounts': ok([]) });
}

function sidebar() {
  const element = document.getElementById('app-sidebar');
  if (!element) throw new Error('no sidebar');
  return within(element);
}

describe('the shell keeps the user language on every page', () => {
  it.each([
    ['/rules', 'กฎอัตโนมัติ', 'Automation Rules'],
    ['/subscription', 'แผนการใช้งาน', 'Subscription'],
  ])('shows %s in Thai inside an English shell until the user chooses', async (path, thai, english) => {
    signIn();
    const user = userEvent.setup();
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: thai })).toBeInTheDocument();
    expect(sidebar().getByRole('link', { name: 'Rules' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    const picker = screen.getByRole('combobox', { name: 'Language' });
    expect(within(picker).getByRole('option', { name: 'Page default' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en');

    await user.selectOptions(picker, 'en');
    expect(await screen.findByRole('heading', { level: 1, name: english })).toBeInTheDocument();

    await user.selectOptions(picker, 'th');
    expect(await sidebar().findByRole('link', { name: 'กฎอัตโนมัติ' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: thai })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('th');
  });

  it('stays English when the user leaves Rules for the dashboard', async () => {
    signIn();
    const user = userEvent.setup();
    renderApp('/rules');
    await screen.findByRole('heading', { level: 1, name: 'กฎอัตโนมัติ' });
    await user.click(sidebar().getByRole('link', { name: 'Dashboard' }));
    expect(await screen.findByRole('heading', { level: 1, name: /^Welcome back/ })).toBeInTheDocument();
    expect(sidebar().getByRole('link', { name: 'Subscription' })).toBeInTheDocument();
  });
});
