import type { Account, AccountSession } from '@adpilot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, fakeApi, ok } from '../../../test/fake-api.ts';
import { buildUser, renderApp, storeSession } from '../../../test/render-app.tsx';

const ME = buildUser();
const PERSONAL_ID = '00000000-0000-4000-8000-00000000000a';
const CLIENT_ID = '00000000-0000-4000-8000-00000000000b';
const EDITOR_ID = '00000000-0000-4000-8000-0000000000c1';

const ACCOUNT: Account = {
  id: ME.id,
  name: ME.name,
  email: ME.email,
  emailVerified: true,
  language: 'en',
  timeZone: 'Asia/Bangkok',
  plan: { id: 'pro', workspaces: 2 },
  workspaces: [
    { id: PERSONAL_ID, name: ME.name, role: 'owner', personal: true, paidByYou: true, members: [] },
    {
      id: CLIENT_ID,
      name: 'Client A',
      role: 'owner',
      personal: false,
      paidByYou: true,
      members: [{ userId: EDITOR_ID, name: 'Somchai Editor', role: 'editor' }],
    },
  ],
};

const SESSIONS: AccountSession[] = [
  {
    id: '00000000-0000-4000-8000-0000000000d1',
    device: 'Firefox on Linux',
    address: '203.0.113.7',
    signedInAt: '2026-11-01T00:00:00.000Z',
    lastSeenAt: '2026-12-01T00:00:00.000Z',
    current: true,
  },
  {
    id: '00000000-0000-4000-8000-0000000000d2',
    device: 'Safari on iPhone',
    address: '198.51.100.4',
    signedInAt: '2026-11-02T00:00:00.000Z',
    lastSeenAt: '2026-11-30T00:00:00.000Z',
    current: false,
  },
];

function openAccount() {
  storeSession();
  const server = fakeApi({
    'GET /auth/me': ok(ME),
    'GET /workspaces': ok([{ id: PERSONAL_ID, name: ME.name, role: 'owner', personal: true }]),
    'GET /account': ok(ACCOUNT),
    'GET /account/sessions': ok(SESSIONS),
    'GET /account/handovers': ok([]),
    'GET /proposals/count': ok({ count: 0 }),
  });
  const user = userEvent.setup();
  renderApp('/account');
  return { server, user };
}

describe('My account', () => {
  it('is reached from the user menu and shows the plan, workspaces and sessions', async () => {
    const { server } = openAccount();
    expect(await screen.findByRole('heading', { name: 'My account' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'My account' })).toHaveAttribute('href', '/account');
    expect(screen.getByText('You pay for the Pro plan, covering 2 workspaces.')).toBeInTheDocument();
    expect(screen.getByText('Client A')).toBeInTheDocument();
    expect(await screen.findByText('Safari on iPhone')).toBeInTheDocument();
    // About the person: never sent with a workspace header.
    expect(server.callsTo('GET', '/account')[0]?.headers['x-workspace-id']).toBeUndefined();
  });

  it('saves the profile and signs another session out', async () => {
    const { server, user } = openAccount();
    server.on('PATCH /account', ({ body }) => ok({ ...ACCOUNT, ...(body as object) }));
    server.on(`DELETE /account/sessions/${SESSIONS[1]?.id}`, ok({ message: 'ended' }));
    const name = await screen.findByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Somchai Jaidee');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() =>
      expect(server.callsTo('PATCH', '/account')[0]?.body).toEqual({
        name: 'Somchai Jaidee',
        language: 'en',
        timeZone: 'Asia/Bangkok',
      }),
    );
    const other = (await screen.findByText('Safari on iPhone')).closest('li');
    if (!other) throw new Error('no session row');
    await user.click(within(other).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.queryByText('Safari on iPhone')).not.toBeInTheDocument());
  });

  it('asks for the data export, about the person, and says the link comes by e-mail', async () => {
    const { server, user } = openAccount();
    server.on('POST /account/export', ok({ message: 'queued' }));
    await user.click(await screen.findByRole('button', { name: 'Export my data' }));
    expect(await screen.findByText('Your data is being prepared: we will e-mail you the link')).toBeInTheDocument();
    expect(server.callsTo('POST', '/account/export')).toHaveLength(1);
    expect(server.callsTo('POST', '/account/export')[0]?.headers['x-workspace-id']).toBeUndefined();
  });

  it('puts a wrong current password under its field', async () => {
    const { server, user } = openAccount();
    server.on(
      'POST /account/password',
      fail(403, 'ACCOUNT_PASSWORD_WRONG', 'The current password is not right', [
        { field: 'currentPassword', message: 'The current password is not right' },
      ]),
    );
    await user.type(await screen.findByLabelText('Current password'), 'Wrong1234');
    await user.type(screen.getByLabelText('New password'), 'N3wPassword!');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findAllByText('The current password is not right')).not.toHaveLength(0);
  });

  it('deletes the account with a fate for each owned workspace', async () => {
    const { server, user } = openAccount();
    server.on('DELETE /account', ok({ message: 'Your account has been deleted' }));
    server.on('POST /auth/logout', ok({ message: 'Logged out' }));
    await user.selectOptions(await screen.findByLabelText('What becomes of “Client A”'), EDITOR_ID);
    await user.type(screen.getByLabelText('Your password'), 'Sup3rSecret!');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() =>
      expect(server.callsTo('DELETE', '/account')[0]?.body).toEqual({
        password: 'Sup3rSecret!',
        workspaces: [{ id: CLIENT_ID, action: 'transfer', toUserId: EDITOR_ID }],
      }),
    );
  });
});
