import { RULE_TEMPLATES, type Rule } from '@adpilot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildAdAccount, fail, fakeApi, ok } from '../test/fake-api.ts';
import { renderAdAccountsPage } from '../test/render-page.tsx';

afterEach(() => {
  toast.remove();
  vi.unstubAllGlobals();
});

describe('AdAccountsPage states', () => {
  it('shows the title, the subtitle and a spinner while the list loads', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    fakeApi({ 'GET /ad-accounts': async () => (await gate, ok([])) });
    renderAdAccountsPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Ad Accounts' })).toBeInTheDocument();
    expect(screen.getByText('Manage your connected Facebook ad accounts.')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading ad accounts...' })).toBeInTheDocument();
    release();
    expect(await screen.findByText('No Ad Accounts Connected')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading ad accounts...' })).not.toBeInTheDocument();
  });

  it('shows the empty state, whose button opens the connect modal', async () => {
    fakeApi({ 'GET /ad-accounts': ok([]) });
    const { user } = renderAdAccountsPage();
    expect(await screen.findByText('No Ad Accounts Connected')).toBeInTheDocument();
    expect(
      screen.getByText('Connect your Facebook ad accounts to start automating your campaigns.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Connect Your First Account' }));
    expect(screen.getByRole('dialog', { name: 'Connect Facebook Ad Account' })).toBeInTheDocument();
  });

  it('shows the error state and retries', async () => {
    const api = fakeApi({ 'GET /ad-accounts': fail(500) });
    const { user } = renderAdAccountsPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error Loading Ad Accounts');
    expect(alert).toHaveTextContent('There was an error loading your ad accounts. Please try again.');

    api.on('GET /ad-accounts', ok([buildAdAccount({ facebook_account_name: 'Recovered' })]));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Recovered' })).toBeInTheDocument();
  });

  it('shows one card per account with its details', async () => {
    const active = buildAdAccount({
      facebook_account_name: 'Bangkok Shop',
      facebook_account_id: 'act_123456',
      currency: 'THB',
      timezone: 'Asia/Bangkok',
      last_sync: '2025-03-04T05:06:07.000Z',
      is_sandbox: true,
    });
    const disabled = buildAdAccount({
      facebook_account_name: 'Old Brand',
      account_status: 'inactive',
      meta_account_status: 2,
      status_reason: 'Disabled by Facebook',
      needs_reauth: true,
    });
    fakeApi({ 'GET /ad-accounts': ok([active, disabled]) });
    renderAdAccountsPage();

    const first = await screen.findByRole('article', { name: 'Bangkok Shop' });
    expect(first).toHaveTextContent('Active');
    expect(first).toHaveTextContent('Sandbox');
    expect(first).toHaveTextContent(/Account ID\s*act_123456/);
    expect(first).toHaveTextContent(/Currency\s*THB/);
    expect(first).toHaveTextContent(/Timezone\s*Asia\/Bangkok/);
    // In the account's own zone, named, unless it is the reader's zone too (ADR 0059).
    const lastSync = new Date(active.last_sync ?? '');
    const inZone = new Intl.DateTimeFormat('en', {
      dateStyle: 'medium',
      timeStyle: 'medium',
      timeZone: active.timezone,
    }).format(lastSync);
    const expectedDate =
      Intl.DateTimeFormat().resolvedOptions().timeZone === active.timezone ? inZone : `${inZone} GMT+7`;
    expect(first).toHaveTextContent(`Last Sync${expectedDate}`);
    // The zone name never wraps alone: it is joined to the time by a no-break space.
    if (expectedDate !== inZone) expect(first.textContent).toContain('\u00a0GMT+7');
    expect(within(first).queryByText('Reconnect required')).not.toBeInTheDocument();
    const link = within(first).getByRole('link', { name: 'View in Facebook' });
    expect(link).toHaveAttribute('href', active.ads_manager_url);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');

    const second = screen.getByRole('article', { name: 'Old Brand' });
    expect(second).toHaveTextContent('Inactive');
    expect(second).toHaveTextContent('Disabled by Facebook');
    expect(within(second).getByTitle('Disabled by Facebook')).toBeInTheDocument();
    expect(second).toHaveTextContent(/Last Sync\s*Never/);
    expect(second).toHaveTextContent('Reconnect required');
    expect(second).not.toHaveTextContent('Sandbox');
    expect(within(second).getByRole('button', { name: 'Sync now' })).toBeDisabled();
  });

  it('marks an account connected without the permission to manage ads as read-only, and says why', async () => {
    fakeApi({
      'GET /ad-accounts': ok([
        buildAdAccount({ facebook_account_name: 'Viewer', read_only: true, missing_scopes: ['ads_management'] }),
        buildAdAccount({ facebook_account_name: 'Manager' }),
      ]),
    });
    renderAdAccountsPage();
    const viewer = await screen.findByRole('article', { name: 'Viewer' });
    expect(viewer).toHaveTextContent('Read-only');
    expect(viewer).toHaveTextContent('the permission to manage ads was not granted');
    expect(screen.getByRole('article', { name: 'Manager' })).not.toHaveTextContent('Read-only');
  });

  it('shows no "View in Facebook" where the server gave no link (a sandbox account, to a viewer)', async () => {
    fakeApi({
      'GET /ad-accounts': ok([
        buildAdAccount({ facebook_account_name: 'Sandbox Shop', is_sandbox: true, ads_manager_url: null }),
      ]),
    });
    renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'Sandbox Shop' });
    expect(within(card).queryByRole('link', { name: 'View in Facebook' })).not.toBeInTheDocument();
  });

  it('counts down to the end of Facebook access in its last week, with Reconnect, and not before', async () => {
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000 + 60_000).toISOString();
    fakeApi({
      'GET /ad-accounts': ok([
        buildAdAccount({ facebook_account_name: 'Ending', token_expires_at: inDays(5) }),
        buildAdAccount({ facebook_account_name: 'Fresh', token_expires_at: inDays(50) }),
        buildAdAccount({ facebook_account_name: 'Ended', token_expires_at: inDays(-1) }),
        buildAdAccount({ facebook_account_name: 'System user', token_expires_at: null, token_kind: 'system_user' }),
      ]),
    });
    const { user } = renderAdAccountsPage();
    const ending = await screen.findByRole('article', { name: 'Ending' });
    expect(ending).toHaveTextContent('Facebook access ends in 5 days. Reconnect to keep syncs and rules running.');
    expect(screen.getByRole('article', { name: 'Ended' })).toHaveTextContent('Facebook access has ended.');
    for (const name of ['Fresh', 'System user']) {
      const card = screen.getByRole('article', { name });
      expect(card).not.toHaveTextContent('Facebook access');
      expect(within(card).queryByRole('button', { name: 'Reconnect' })).not.toBeInTheDocument();
    }
    // The kind of token is on each card: a never-expiring system user's counts nothing down.
    expect(screen.getByRole('article', { name: 'System user' })).toHaveTextContent('AccessBusiness system user');
    expect(ending).toHaveTextContent('AccessPersonal (Facebook Login)');
    await user.click(within(ending).getByRole('button', { name: 'Reconnect' }));
    expect(screen.getByRole('dialog', { name: 'Connect Facebook Ad Account' })).toBeInTheDocument();
  });

  it("warns before Meta's end of the pinned Marketing API version, in its last 90 days and after, and not before", async () => {
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    fakeApi({
      'GET /ad-accounts': ok([
        buildAdAccount({ facebook_account_name: 'Ending version', api_version: 'v25.0', api_version_ends_at: day(30) }),
        buildAdAccount({ facebook_account_name: 'Ended version', api_version: 'v24.0', api_version_ends_at: day(-2) }),
        buildAdAccount({ facebook_account_name: 'Far version', api_version: 'v27.0', api_version_ends_at: day(200) }),
        buildAdAccount({ facebook_account_name: 'Undated version', api_version: 'v27.0', api_version_ends_at: null }),
      ]),
    });
    renderAdAccountsPage();
    const ending = await screen.findByRole('article', { name: 'Ending version' });
    const endDay = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(`${day(30)}T00:00:00Z`),
    );
    expect(ending).toHaveTextContent(
      `Meta ends Marketing API v25.0 on ${endDay}. AdPilot must move to a newer version before then: tell your administrator.`,
    );
    expect(screen.getByRole('article', { name: 'Ended version' })).toHaveTextContent(
      'Meta ended Marketing API v24.0 on',
    );
    for (const name of ['Far version', 'Undated version'])
      expect(screen.getByRole('article', { name })).not.toHaveTextContent('Marketing API');
  });

  it('opens the connect modal from a card that needs reconnecting', async () => {
    fakeApi({ 'GET /ad-accounts': ok([buildAdAccount({ facebook_account_name: 'Expired', needs_reauth: true })]) });
    const { user } = renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'Expired' });
    await user.click(within(card).getByRole('button', { name: 'Reconnect' }));
    expect(screen.getByRole('dialog', { name: 'Connect Facebook Ad Account' })).toBeInTheDocument();
  });
});

describe('AdAccountsPage monthly budgets and the anomaly mute', () => {
  const BUDGET = {
    campaign_id: null,
    name: 'Brooklyn Coffee',
    amount: 100_000,
    currency: 'USD',
    month: '2026-12',
    month_to_date: 20_000,
    projected: 130_000,
    percent: 130,
    status: 'over' as const,
  };

  it('shows this month against each budget, sets a campaign one, removes one and mutes the alerts', async () => {
    const account = buildAdAccount({
      facebook_account_name: 'Brooklyn Coffee',
      currency: 'USD',
      timezone: 'America/New_York',
    });
    const base = `/ad-accounts/${account.id}`;
    const campaign = {
      ...BUDGET,
      campaign_id: '2384',
      name: 'Summer sale',
      amount: 50_000,
      status: 'on_track' as const,
    };
    const fake = fakeApi({
      'GET /ad-accounts': ok([account]),
      [`GET ${base}/monthly-budgets`]: ok([BUDGET]),
      'GET /entities': ok([{ externalId: '2384', name: 'Summer sale' }]),
    });
    fake.on(`PUT ${base}/monthly-budgets`, (call) =>
      ok((call.body as { amount: number | null }).amount === null ? [campaign] : [BUDGET, campaign]),
    );
    fake.on(`POST ${base}/anomalies/mute`, (call) =>
      ok({ muted_until: (call.body as { hours: number }).hours > 0 ? '2099-01-01T00:00:00.000Z' : null }),
    );
    const { user } = renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'Brooklyn Coffee' });
    await user.click(within(card).getByText('Monthly budget and alerts'));

    expect(await within(card).findByText('Whole account: $100,000.00')).toBeInTheDocument();
    expect(card).toHaveTextContent('Spent $20,000.00 this month, on course for $130,000.00 (130%). Over budget');
    expect(fake.callsTo('GET', '/entities')[0]?.query.get('adAccountId')).toBe(account.id);

    await user.click(within(card).getByRole('button', { name: 'Set budget' }));
    expect(within(card).getByText('Enter an amount above 0')).toBeInTheDocument();
    expect(fake.callsTo('PUT', `${base}/monthly-budgets`)).toHaveLength(0);
    await within(card).findByRole('option', { name: 'Summer sale' });
    await user.selectOptions(within(card).getByLabelText('Budget for'), '2384');
    await user.type(within(card).getByLabelText('Amount (USD)'), '50000');
    await user.click(within(card).getByRole('button', { name: 'Set budget' }));
    await waitFor(() => expect(fake.callsTo('PUT', `${base}/monthly-budgets`)).toHaveLength(1));
    expect(fake.callsTo('PUT', `${base}/monthly-budgets`)[0]?.body).toEqual({ campaign_id: '2384', amount: 50000 });
    expect(await within(card).findByText('Summer sale: $50,000.00')).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Remove the budget of Whole account' }));
    await waitFor(() => expect(within(card).queryByText('Whole account: $100,000.00')).not.toBeInTheDocument());
    expect(fake.callsTo('PUT', `${base}/monthly-budgets`)[1]?.body).toEqual({ campaign_id: null, amount: null });

    expect(card).toHaveTextContent('Sudden jumps and drops of spend, results, CPA and CPM are flagged and notified.');
    await user.click(within(card).getByRole('button', { name: 'Mute 24 h' }));
    expect(await within(card).findByText(/^Muted until /)).toBeInTheDocument();
    expect(fake.callsTo('POST', `${base}/anomalies/mute`)[0]?.body).toEqual({ hours: 24 });
    await user.click(within(card).getByRole('button', { name: 'Unmute' }));
    await waitFor(() => expect(within(card).queryByText(/^Muted until /)).not.toBeInTheDocument());
    expect(fake.callsTo('POST', `${base}/anomalies/mute`)[1]?.body).toEqual({ hours: 0 });
  });
});

describe('AdAccountsPage disconnect', () => {
  it('asks for confirmation, deletes, toasts and refetches the list', async () => {
    const keep = buildAdAccount({ facebook_account_name: 'Keep me' });
    const drop = buildAdAccount({ facebook_account_name: 'Drop me' });
    const api = fakeApi({
      'GET /ad-accounts': ok([keep, drop]),
      [`DELETE /ad-accounts/${drop.id}`]: { status: 204, body: null },
    });
    const { user } = renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'Drop me' });

    await user.click(within(card).getByRole('button', { name: 'Disconnect' }));
    let dialog = screen.getByRole('dialog', { name: 'Disconnect Ad Account' });
    expect(dialog).toHaveTextContent('Disconnect Drop me?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('DELETE', `/ad-accounts/${drop.id}`)).toHaveLength(0);

    const listCallsBefore = api.callsTo('GET', '/ad-accounts').length;
    api.on('GET /ad-accounts', ok([keep]));
    await user.click(within(card).getByRole('button', { name: 'Disconnect' }));
    dialog = screen.getByRole('dialog', { name: 'Disconnect Ad Account' });
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));

    expect(await screen.findByText('Drop me was disconnected.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Drop me' })).not.toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Keep me' })).toBeInTheDocument();
    expect(api.callsTo('DELETE', `/ad-accounts/${drop.id}`)).toHaveLength(1);
    await waitFor(() => expect(api.callsTo('GET', '/ad-accounts').length).toBeGreaterThan(listCallsBefore));
  });

  it('says which rules lose the account and which are switched off, and Cancel sends nothing', async () => {
    const shop = buildAdAccount({ facebook_account_name: 'Shop' });
    const other = buildAdAccount({ facebook_account_name: 'Other' });
    const rule = (name: string, adAccountIds: string[], isActive: boolean): Rule => ({
      ...RULE_TEMPLATES[0]!.rule,
      scope: { ...RULE_TEMPLATES[0]!.rule.scope, adAccountIds },
      isActive,
      id: `00000000-0000-4000-8000-0000000009${name.length}${adAccountIds.length}`,
      name,
      description: '',
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
      lastTriggered: null,
      warnings: [],
    });
    const api = fakeApi({
      'GET /ad-accounts': ok([shop, other]),
      'GET /rules': ok([
        rule('Only shop', [shop.id], true),
        rule('Both', [shop.id, other.id], true),
        rule('Elsewhere', [other.id], true),
      ]),
    });
    const { user } = renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'Shop' });
    await user.click(within(card).getByRole('button', { name: 'Disconnect' }));
    const dialog = screen.getByRole('dialog', { name: 'Disconnect Ad Account' });
    expect(
      await within(dialog).findByText('2 rules stop covering this account: Only shop and Both.'),
    ).toBeInTheDocument();
    expect(dialog).toHaveTextContent('1 active rule covers no other account and will be switched off: Only shop.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('DELETE', `/ad-accounts/${shop.id}`)).toHaveLength(0);
  });

  it('keeps the card and shows the server message when the delete fails', async () => {
    const account = buildAdAccount({ facebook_account_name: 'Stubborn' });
    fakeApi({
      'GET /ad-accounts': ok([account]),
      [`DELETE /ad-accounts/${account.id}`]: fail(404, 'Ad account not found'),
    });
    const { user } = renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'Stubborn' });
    await user.click(within(card).getByRole('button', { name: 'Disconnect' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Ad account not found')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Stubborn' })).toBeInTheDocument();
  });
});

describe('AdAccountsPage sync', () => {
  it('queues a sync, spins while the list is polled, then shows the new Last Sync and a toast', async () => {
    const account = buildAdAccount({ facebook_account_name: 'Busy Shop' });
    const queued = { ...account, sync_status: 'queued' as const };
    const done = { ...account, last_sync: '2025-06-01T10:00:00.000Z' };
    const api = fakeApi({
      'GET /ad-accounts': ok([account]),
      [`POST /ad-accounts/${account.id}/sync`]: ok({ queued: true, account: queued }),
    });
    const { user } = renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'Busy Shop' });
    expect(card).toHaveTextContent(/Last Sync\s*Never/);

    api.on('GET /ad-accounts', ok([done]));
    await user.click(within(card).getByRole('button', { name: 'Sync now' }));
    expect(await within(card).findByRole('button', { name: 'Syncing...' })).toBeDisabled();
    expect(api.callsTo('POST', `/ad-accounts/${account.id}/sync`)).toHaveLength(1);

    expect(await screen.findByText('Busy Shop is up to date.', {}, { timeout: 4_000 })).toBeInTheDocument();
    expect(card).not.toHaveTextContent('Never');
    expect(within(card).getByRole('button', { name: 'Sync now' })).toBeEnabled();
  });

  it('reports a sync that ends in error', async () => {
    const account = buildAdAccount({ facebook_account_name: 'Flaky' });
    const failed = { ...account, sync_status: 'error' as const, last_sync_error: 'Rate limited' };
    fakeApi({
      'GET /ad-accounts': ok([account]),
      [`POST /ad-accounts/${account.id}/sync`]: ok({ queued: false, account: failed }),
    });
    const { user } = renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'Flaky' });
    await user.click(within(card).getByRole('button', { name: 'Sync now' }));
    expect(await screen.findByText('Failed to sync Flaky. Please try again.')).toBeInTheDocument();
    expect(card).toHaveTextContent('Last sync failed: Rate limited');
  });

  it('renders a recovered stale sync from its stored code', async () => {
    const account = buildAdAccount({
      facebook_account_name: 'Stalled',
      sync_status: 'error',
      last_sync_error: 'sync_stalled',
    });
    fakeApi({ 'GET /ad-accounts': ok([account]) });
    renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'Stalled' });
    expect(card).toHaveTextContent('Last sync failed: the sync stopped responding; sync again');
    expect(within(card).getByRole('button', { name: 'Sync now' })).toBeEnabled();
  });

  it('words every stored sync error code', async () => {
    const account = buildAdAccount({
      facebook_account_name: 'Expired',
      sync_status: 'error',
      last_sync_error: 'meta_unavailable',
    });
    fakeApi({ 'GET /ad-accounts': ok([account]) });
    renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'Expired' });
    expect(card).toHaveTextContent('Last sync failed: Facebook is temporarily unavailable');
  });

  it('toasts when the sync request itself fails', async () => {
    const account = buildAdAccount({ facebook_account_name: 'Offline' });
    fakeApi({
      'GET /ad-accounts': ok([account]),
      [`POST /ad-accounts/${account.id}/sync`]: fail(503),
    });
    const { user } = renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'Offline' });
    await user.click(within(card).getByRole('button', { name: 'Sync now' }));
    expect(await screen.findByText('Failed to sync Offline. Please try again.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Sync now' })).toBeEnabled();
  });
});
