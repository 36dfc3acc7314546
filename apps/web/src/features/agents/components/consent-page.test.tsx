import type { OAuthAuthorization, Workspace } from '@adpilot/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, fakeApi, ok } from '../../../test/fake-api.ts';
import { buildUser, renderApp, storeSession } from '../../../test/render-app.tsx';

const ME = buildUser();
const PERSONAL: Workspace = {
  id: '00000000-0000-4000-8000-00000000000a',
  name: ME.name,
  role: 'owner',
  personal: true,
};
const CLIENT_WS: Workspace = {
  id: '00000000-0000-4000-8000-00000000000b',
  name: 'Client shop',
  role: 'viewer',
  personal: false,
};
const QUERY = new URLSearchParams({
  client_id: '00000000-0000-4000-8000-0000000000c1',
  redirect_uri: 'http://127.0.0.1:45678/callback',
  response_type: 'code',
  code_challenge: 'x'.repeat(43),
  code_challenge_method: 'S256',
  scope: 'read propose write',
  state: 'abc',
  resource: 'http://localhost:3000/mcp',
});
const AUTHORIZATION: OAuthAuthorization = {
  client: { id: '00000000-0000-4000-8000-0000000000c1', name: 'Claude' },
  redirectHost: '127.0.0.1:45678',
  loopback: true,
  scopes: ['read', 'propose', 'write'],
  workspaces: [
    { ...PERSONAL, grantable: ['read', 'propose', 'write'] },
    { ...CLIENT_WS, grantable: ['read'] },
  ],
};

function open(answer = ok(AUTHORIZATION)) {
  storeSession();
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign, origin: 'http://localhost:3000' });
  const server = fakeApi({
    'GET /auth/me': ok(ME),
    'GET /workspaces': ok([PERSONAL, CLIENT_WS]),
    'GET /oauth/authorization': answer,
  });
  renderApp(`/oauth/consent?${QUERY}`);
  return { server, assign, user: userEvent.setup() };
}

afterEach(() => vi.unstubAllGlobals());

describe('the OAuth consent page', () => {
  it('names the client and where its access goes, and allows the scopes the member ticked in the workspace chosen', async () => {
    const { server, assign, user } = open();
    expect(await screen.findByRole('heading', { name: 'Allow Claude to use AdPilot?' })).toBeInTheDocument();
    expect(screen.getByText(/on this computer \(127\.0\.0\.1:45678\)/)).toBeInTheDocument();
    // Read is ticked, more is the member's choice.
    expect(screen.getByRole('checkbox', { name: /Read/ })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: /Propose/ }));
    server.on('POST /oauth/consent', ok({ redirectTo: 'http://127.0.0.1:45678/callback?code=c&state=abc' }));
    await user.click(screen.getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://127.0.0.1:45678/callback?code=c&state=abc'));
    expect(server.callsTo('POST', '/oauth/consent')[0]?.body).toEqual({
      ...Object.fromEntries(QUERY),
      decision: 'allow',
      workspaceId: PERSONAL.id,
      scopes: ['read', 'propose'],
    });
    // The person's own decision: no workspace header goes with it.
    expect(server.callsTo('POST', '/oauth/consent')[0]?.headers['x-workspace-id']).toBeUndefined();
  });

  it('offers in a workspace where the member is a viewer only what a viewer may grant', async () => {
    const { user } = open();
    await user.selectOptions(await screen.findByLabelText('Workspace'), CLIENT_WS.id);
    expect(screen.getByRole('checkbox', { name: /Write/ })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: /Read/ })).toBeEnabled();
  });

  it('sends a denial back to the client', async () => {
    const { server, assign, user } = open();
    server.on('POST /oauth/consent', ok({ redirectTo: 'http://127.0.0.1:45678/callback?error=access_denied' }));
    await user.click(await screen.findByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://127.0.0.1:45678/callback?error=access_denied'));
    expect((server.callsTo('POST', '/oauth/consent')[0]?.body as { decision: string }).decision).toBe('deny');
  });

  it('says a request it cannot honour cannot be used, in the words of its code', async () => {
    open(fail(400, 'OAUTH_REQUEST_INVALID', 'This AI client is not registered with AdPilot'));
    expect(await screen.findByRole('heading', { name: 'This request cannot be used' })).toBeInTheDocument();
    expect(
      screen.getByText('This connection request is not valid: start again from the AI client.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Allow' })).not.toBeInTheDocument();
  });
});
