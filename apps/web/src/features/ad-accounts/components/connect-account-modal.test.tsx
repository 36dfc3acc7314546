import { screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, fakeApi, ok } from '../test/fake-api.ts';
import { renderAdAccountsPage } from '../test/render-page.tsx';

const AUTH_URL = '/sandbox/meta/v27.0/dialog/oauth?client_id=sandbox&state=abc';

afterEach(() => {
  toast.remove();
  vi.unstubAllGlobals();
});

/** jsdom cannot navigate; a stand-in location records where the page sends the browser. */
function stubLocationAssign() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

async function openConnectModal() {
  const rendered = renderAdAccountsPage();
  await screen.findByText('No Ad Accounts Connected');
  await rendered.user.click(screen.getByRole('button', { name: 'Connect Account' }));
  return { ...rendered, dialog: screen.getByRole('dialog', { name: 'Connect Facebook Ad Account' }) };
}

describe('ConnectAccountModal', () => {
  it('explains the redirect and lists what is accessed', async () => {
    fakeApi({ 'GET /ad-accounts': ok([]) });
    const { dialog } = await openConnectModal();
    expect(dialog).toHaveTextContent('You will be redirected to Facebook to authorize access');
    expect(dialog).toHaveTextContent('We only request the permissions needed for ad management and optimization.');
    const items = within(dialog)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      'Read ad account information',
      'View campaign performance data',
      'Pause/resume ads and ad sets',
      'Update budgets and bids',
    ]);
    expect(within(dialog).getByRole('button', { name: 'Continue to Facebook' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('Continue fetches the authorisation address and sends the browser there, showing Connecting...', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const api = fakeApi({
      'GET /ad-accounts': ok([]),
      'GET /ad-accounts/facebook/auth-url': async () => (await gate, ok({ authUrl: AUTH_URL })),
    });
    const assign = stubLocationAssign();
    const { user, dialog } = await openConnectModal();

    await user.click(within(dialog).getByRole('button', { name: 'Continue to Facebook' }));
    const busy = within(dialog).getByRole('button', { name: 'Connecting...' });
    expect(busy).toBeDisabled();
    release();

    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(AUTH_URL));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(api.callsTo('GET', '/ad-accounts/facebook/auth-url')).toHaveLength(1);
    expect(within(dialog).getByRole('button', { name: 'Connecting...' })).toBeDisabled();
  });

  it('toasts and clears the busy state when the address cannot be fetched', async () => {
    fakeApi({ 'GET /ad-accounts': ok([]), 'GET /ad-accounts/facebook/auth-url': fail(500) });
    const assign = stubLocationAssign();
    const { user, dialog } = await openConnectModal();

    await user.click(within(dialog).getByRole('button', { name: 'Continue to Facebook' }));
    expect(await screen.findByText('Failed to initiate Facebook connection. Please try again.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Continue to Facebook' })).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
  });

  it('closes with Cancel', async () => {
    fakeApi({ 'GET /ad-accounts': ok([]) });
    const { user, dialog } = await openConnectModal();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
