import { act, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildAdAccount, fail, fakeApi, ok } from '../test/fake-api.ts';
import { renderAdAccountsPage } from '../test/render-page.tsx';

afterEach(() => {
  toast.remove();
  vi.unstubAllGlobals();
});

const address = () => screen.getByTestId('address').textContent;

describe('return from Facebook', () => {
  it('exchanges code and state once, cleans the address, toasts and refetches the list', async () => {
    const accounts = [
      buildAdAccount({ facebook_account_name: 'Shop A' }),
      buildAdAccount({ facebook_account_name: 'Shop B' }),
    ];
    let connected = false;
    const api = fakeApi({
      'GET /ad-accounts': () => ok(connected ? accounts : []),
      'POST /ad-accounts/facebook/callback': () => {
        connected = true;
        return ok({ connectedAccounts: accounts, leftOutAccounts: [], adAccountLimit: -1 });
      },
    });
    renderAdAccountsPage('/ad-accounts?code=one-time-code&state=state-123');

    expect(await screen.findByText('Successfully connected 2 ad accounts!')).toBeInTheDocument();
    expect(await screen.findByRole('article', { name: 'Shop A' })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Shop B' })).toBeInTheDocument();
    expect(address()).toBe('/ad-accounts');
    const callbacks = api.callsTo('POST', '/ad-accounts/facebook/callback');
    expect(callbacks).toHaveLength(1);
    expect(callbacks[0]?.body).toEqual({ code: 'one-time-code', state: 'state-123' });
  });

  it('shows the new cards when the first read of the list left before the accounts were stored', async () => {
    const accounts = [buildAdAccount({ facebook_account_name: 'Shop C' })];
    let connected = false;
    let firstReadTaken = () => {};
    const firstRead = new Promise<void>((resolve) => (firstReadTaken = resolve));
    let stored = () => {};
    const callbackAnswered = new Promise<void>((resolve) => (stored = resolve));
    let reads = 0;
    fakeApi({
      // The page's first read sees no account yet and answers only after the exchange has stored them.
      'GET /ad-accounts': async () => {
        reads += 1;
        const answer = ok(connected ? accounts : []);
        if (reads === 1) {
          firstReadTaken();
          await callbackAnswered;
        }
        return answer;
      },
      'POST /ad-accounts/facebook/callback': async () => {
        await firstRead;
        connected = true;
        stored();
        return ok({ connectedAccounts: accounts, leftOutAccounts: [], adAccountLimit: -1 });
      },
    });
    renderAdAccountsPage('/ad-accounts?code=c&state=s');
    expect(await screen.findByRole('article', { name: 'Shop C' })).toBeInTheDocument();
    expect(reads).toBeGreaterThanOrEqual(2);
  });

  it('keeps unrelated parameters when cleaning the address', async () => {
    fakeApi({
      'GET /ad-accounts': ok([]),
      'POST /ad-accounts/facebook/callback': ok({
        connectedAccounts: [buildAdAccount()],
        leftOutAccounts: [],
        adAccountLimit: -1,
      }),
    });
    renderAdAccountsPage('/ad-accounts?code=c&state=s&view=compact');
    expect(await screen.findByText('Successfully connected 1 ad account!')).toBeInTheDocument();
    expect(address()).toBe('/ad-accounts?view=compact');
  });

  it.each([
    { limit: 1, words: 'Your plan allows 1 ad account, so these were not connected: Shop E, Shop F.' },
    { limit: 5, words: 'Your plan allows 5 ad accounts, so these were not connected: Shop E, Shop F.' },
  ])('names the accounts the plan ($limit) left out, counted in words', async ({ limit, words }) => {
    fakeApi({
      'GET /ad-accounts': ok([]),
      'POST /ad-accounts/facebook/callback': ok({
        connectedAccounts: [buildAdAccount({ facebook_account_name: 'Shop D' })],
        leftOutAccounts: [
          buildAdAccount({ facebook_account_name: 'Shop E' }),
          buildAdAccount({ facebook_account_name: 'Shop F' }),
        ],
        adAccountLimit: limit,
      }),
    });
    renderAdAccountsPage('/ad-accounts?code=c&state=s');
    expect(await screen.findByText(new RegExp(`^${words.replaceAll('.', '\\.')}`))).toBeInTheDocument();
  });

  it('toasts the failure when the exchange is refused', async () => {
    fakeApi({
      'GET /ad-accounts': ok([]),
      'POST /ad-accounts/facebook/callback': fail(400, 'This connection request has expired'),
    });
    renderAdAccountsPage('/ad-accounts?code=old&state=used');
    expect(await screen.findByText('Failed to connect Facebook ad accounts. Please try again.')).toBeInTheDocument();
    expect(address()).toBe('/ad-accounts');
  });

  it('says “Connection cancelled”, not a failure, without calling the server when the user cancelled on the consent screen', async () => {
    const api = fakeApi({ 'GET /ad-accounts': ok([]) });
    renderAdAccountsPage('/ad-accounts?error=access_denied&error_reason=user_denied&error_description=Denied&state=s');
    expect(await screen.findByText(/^Connection cancelled\./)).toBeInTheDocument();
    expect(screen.queryByText('Failed to connect Facebook ad accounts. Please try again.')).not.toBeInTheDocument();
    expect(address()).toBe('/ad-accounts');
    expect(api.callsTo('POST', '/ad-accounts/facebook/callback')).toHaveLength(0);
  });

  it('reports another error from Facebook as the spec’s failure', async () => {
    fakeApi({ 'GET /ad-accounts': ok([]) });
    renderAdAccountsPage('/ad-accounts?error=server_error&error_description=Oops&state=s');
    expect(await screen.findByText('Failed to connect Facebook ad accounts. Please try again.')).toBeInTheDocument();
  });

  it('ignores a code without a state', async () => {
    const api = fakeApi({ 'GET /ad-accounts': ok([]) });
    renderAdAccountsPage('/ad-accounts?code=lonely');
    expect(await screen.findByText('No Ad Accounts Connected')).toBeInTheDocument();
    expect(address()).toBe('/ad-accounts?code=lonely');
    expect(api.callsTo('POST', '/ad-accounts/facebook/callback')).toHaveLength(0);
  });
});

describe('?connect=1 from the dashboard', () => {
  it('opens the connect modal and drops the parameter', async () => {
    fakeApi({ 'GET /ad-accounts': ok([]) });
    renderAdAccountsPage('/ad-accounts?connect=1');
    expect(await screen.findByRole('dialog', { name: 'Connect Facebook Ad Account' })).toBeInTheDocument();
    await waitFor(() => expect(address()).toBe('/ad-accounts'));
  });

  it('opens the modal again when the same link is followed a second time', async () => {
    fakeApi({ 'GET /ad-accounts': ok([]) });
    const { user, navigate } = renderAdAccountsPage('/ad-accounts?connect=1');
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(address()).toBe('/ad-accounts'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await act(() => navigate('/ad-accounts?connect=1'));
    expect(await screen.findByRole('dialog', { name: 'Connect Facebook Ad Account' })).toBeInTheDocument();
    await waitFor(() => expect(address()).toBe('/ad-accounts'));
  });
});
