import type { InvitationPreview } from '@adpilot/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { WORKSPACE_STORAGE_KEY } from '../../../lib/current-workspace.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildSession, buildUser, renderApp, storeSession } from '../../../test/render-app.tsx';
import { buildWorkspace, fail, fakeApi, ME, ok, PERSONAL } from '../test/fixtures.ts';

const PAGE = '/invitations/accept?token=abc';
const TEAM = buildWorkspace({ role: 'editor' });
const PREVIEW: InvitationPreview = {
  workspaceName: TEAM.name,
  personal: false,
  role: 'editor',
  email: ME.email,
  invitedBy: 'Olivia Owner',
  expiresAt: '2026-12-03T00:00:00.000Z',
};

function serve(signedInAs = ME) {
  return fakeApi({
    'GET /invitations/preview': ok(PREVIEW),
    'GET /auth/me': ok(signedInAs),
    'GET /workspaces': ok([PERSONAL]),
    'POST /auth/login': ok(buildSession(signedInAs)),
    'POST /auth/logout': { status: 204, body: null },
  });
}

describe('the invitation page', () => {
  it('shows the invitation signed out, and comes back to it after signing in to accept it', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderApp(PAGE);
    expect(await screen.findByText('You are invited to join Acme Agency as Editor.')).toBeInTheDocument();
    expect(screen.getByText('Olivia Owner')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create account' })).toHaveAttribute(
      'href',
      `/register?next=${encodeURIComponent(PAGE)}&email=${encodeURIComponent(ME.email)}`,
    );

    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(await screen.findByLabelText('Email')).toHaveValue(ME.email);
    await user.type(screen.getByLabelText('Password'), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(PAGE));

    server.on('POST /invitations/accept', ok(TEAM));
    server.on('GET /workspaces', ok([PERSONAL, TEAM]));
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(server.callsTo('POST', '/invitations/accept')[0]?.body).toEqual({ token: 'abc' });
    expect(sessionStorage.getItem(WORKSPACE_STORAGE_KEY)).toBe(TEAM.id);
  });

  it('signs up from the invitation with the invited address filled in, and comes back to it', async () => {
    const server = serve();
    server.on('POST /auth/register', ok(buildSession(ME)));
    const user = userEvent.setup();
    renderApp(PAGE);
    await user.click(await screen.findByRole('link', { name: 'Create account' }));
    expect(await screen.findByLabelText('Email')).toHaveValue(ME.email);
    await user.type(screen.getByLabelText('Full name'), ME.name);
    await user.type(screen.getByLabelText('Password'), 'Secret123');
    await user.type(screen.getByLabelText('Confirm password'), 'Secret123');
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(PAGE));
    expect(server.callsTo('POST', '/auth/register')[0]?.body).toEqual({
      name: ME.name,
      email: ME.email,
      password: 'Secret123',
    });
  });

  it('says when the invitation was sent to another address, and offers to sign out', async () => {
    const other = buildUser({ email: 'someone.else@example.com' });
    storeSession(buildSession(other));
    serve(other);
    const user = userEvent.setup();
    renderApp(PAGE);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `You are signed in as someone.else@example.com, but this invitation was sent to ${ME.email}.`,
    );
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(PAGE);
  });

  it('shows a refused acceptance with its code’s words', async () => {
    storeSession();
    const server = serve();
    server.on('POST /invitations/accept', fail(409, 'INVITATION_REVOKED', 'Revoked'));
    const user = userEvent.setup();
    renderApp(PAGE);
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation was withdrawn');
    expect(sessionStorage.getItem(WORKSPACE_STORAGE_KEY)).toBeNull();
  });

  it('says an expired invitation has expired, in Thai', async () => {
    setLanguageChoice('th');
    const server = serve();
    server.on('GET /invitations/preview', fail(409, 'INVITATION_EXPIRED', 'Expired'));
    renderApp(PAGE);
    expect(await screen.findByRole('alert')).toHaveTextContent('คำเชิญนี้หมดอายุแล้ว');
  });

  it('says an unknown or missing token is not a valid link', async () => {
    const server = serve();
    server.on('GET /invitations/preview', fail(404, 'NOT_FOUND', 'Not found'));
    const { unmount } = renderApp('/invitations/accept?token=nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation link is not valid.');
    unmount();
    renderApp('/invitations/accept');
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation link is not valid.');
    expect(server.callsTo('GET', '/invitations/preview')).toHaveLength(1);
  });
});
