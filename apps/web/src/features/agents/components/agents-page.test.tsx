import type { AgentPolicy, ApiToken, Workspace } from '@adpilot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { chooseWorkspace } from '../../../lib/current-workspace.ts';
import { fakeApi, ok } from '../../../test/fake-api.ts';
import { buildUser, renderApp, storeSession } from '../../../test/render-app.tsx';

const ME = buildUser();
const PERSONAL: Workspace = {
  id: '00000000-0000-4000-8000-00000000000a',
  name: ME.name,
  role: 'owner',
  personal: true,
};
const team = (role: Workspace['role']): Workspace => ({
  id: '00000000-0000-4000-8000-00000000000b',
  name: 'Acme Agency',
  role,
  personal: false,
});

const TOKEN: ApiToken = {
  id: '00000000-0000-4000-8000-0000000000e1',
  kind: 'token',
  name: 'Claude Desktop',
  scopes: ['read'],
  hint: 'adp_ab12cd',
  createdAt: '2026-11-20T08:00:00.000Z',
  lastUsedAt: null,
  expiresAt: '2027-02-18T08:00:00.000Z',
  createdBy: { id: ME.id, name: ME.name },
  client: null,
};
const GRANT: ApiToken = {
  ...TOKEN,
  id: '00000000-0000-4000-8000-0000000000e2',
  kind: 'oauth',
  name: 'ChatGPT',
  hint: null,
  expiresAt: null,
  client: { name: 'ChatGPT', redirectHost: 'chatgpt.com' },
};
const POLICY: AgentPolicy = {
  maxBudgetChangePercent: 20,
  maxChangesPerDay: 20,
  protectedCampaignIds: [],
  updatedAt: null,
  campaigns: [
    { id: '00000000-0000-4000-8000-0000000000f1', name: 'Summer Sale', adAccountName: 'Bangkok Bakery' },
    { id: '00000000-0000-4000-8000-0000000000f2', name: 'Brand awareness', adAccountName: 'Bangkok Bakery' },
  ],
};

function openAs(role: Workspace['role']) {
  const workspace = team(role);
  storeSession();
  chooseWorkspace(workspace.id);
  const server = fakeApi({
    'GET /auth/me': ok(ME),
    'GET /workspaces': ok([PERSONAL, workspace]),
    'GET /tokens': ok([TOKEN, GRANT]),
    [`GET /workspaces/${workspace.id}/agent-policy`]: ok(POLICY),
  });
  renderApp('/settings/api-tokens');
  return { server, user: userEvent.setup(), workspace };
}

describe('AI agents & API tokens', () => {
  it('makes a token with the access chosen, shows it once with each client’s configuration, and lists it', async () => {
    const { server, user } = openAs('admin');
    const secret = 'adp_0123456789abcdefghijklmnopqrstuvwxyzABCDE';
    server.on('POST /tokens', (call) =>
      ok(
        {
          ...TOKEN,
          id: '00000000-0000-4000-8000-0000000000e9',
          name: 'Cursor',
          scopes: ['read', 'propose'],
          token: secret,
          body: call.body,
        },
        201,
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'New API token' }));
    const dialog = screen.getByRole('dialog', { name: 'New API token' });
    await user.type(within(dialog).getByLabelText('Name'), 'Cursor');
    await user.click(within(dialog).getByLabelText(/Read and propose/));
    await user.selectOptions(within(dialog).getByLabelText('Expires'), 'In 30 days');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    await waitFor(() =>
      expect(server.callsTo('POST', '/tokens')[0]?.body).toEqual({
        name: 'Cursor',
        scopes: ['propose'],
        expiresInDays: 30,
      }),
    );

    const shown = await screen.findByRole('dialog', { name: 'Your new API token' });
    expect(within(shown).getByTestId('created-token')).toHaveTextContent(secret);
    expect(within(shown).getByText(/shown only once/)).toBeInTheDocument();
    await user.click(within(shown).getByRole('tab', { name: 'Cursor' }));
    expect(within(shown).getByRole('tabpanel')).toHaveTextContent(`"Authorization": "Bearer ${secret}"`);
    expect(within(shown).getByRole('tabpanel')).toHaveTextContent('http://localhost:3000/mcp');
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    // The list names it, without its secret.
    const list = screen.getByRole('list', { name: 'API tokens and connected apps' });
    expect(within(list).getByText('Cursor')).toBeInTheDocument();
    expect(list).not.toHaveTextContent(secret);
  });

  it('lists tokens and connected apps with their creator, last use and expiry, and revokes one after asking', async () => {
    const { server, user } = openAs('owner');
    server.on(`DELETE /tokens/${GRANT.id}`, ok({ message: 'Token revoked' }));
    const list = await screen.findByRole('list', { name: 'API tokens and connected apps' });
    expect(within(list).getByText('Claude Desktop')).toBeInTheDocument();
    expect(within(list).getByText('adp_ab12cd…')).toBeInTheDocument();
    expect(list).toHaveTextContent(`Created by ${ME.name}`);
    expect(list).toHaveTextContent('Never used');
    expect(list).toHaveTextContent('Receives codes at chatgpt.com');
    expect(list).toHaveTextContent('No expiry');

    await user.click(within(list).getByRole('button', { name: 'Revoke ChatGPT' }));
    const confirm = screen.getByRole('dialog', { name: 'Revoke “ChatGPT”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(server.callsTo('DELETE', `/tokens/${GRANT.id}`)).toHaveLength(1));
    await waitFor(() => expect(within(list).queryByText('ChatGPT')).not.toBeInTheDocument());
  });

  it('saves the agent policy with the campaigns chosen', async () => {
    const { server, user, workspace } = openAs('owner');
    const path = `/workspaces/${workspace.id}/agent-policy`;
    server.on(`PUT ${path}`, (call) =>
      ok({ ...POLICY, ...(call.body as object), updatedAt: '2026-12-01T10:00:00.000Z' }),
    );
    const budget = await screen.findByLabelText('Largest budget change per action (%)');
    await user.clear(budget);
    await user.type(budget, '10');
    await user.click(screen.getByLabelText(/Summer Sale/));
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    await waitFor(() =>
      expect(server.callsTo('PUT', path)[0]?.body).toEqual({
        maxBudgetChangePercent: 10,
        maxChangesPerDay: 20,
        protectedCampaignIds: ['00000000-0000-4000-8000-0000000000f1'],
      }),
    );
    await user.clear(budget);
    await user.type(budget, '150');
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText('Enter a whole number from 1 to 100.')).toBeInTheDocument();
    expect(server.callsTo('PUT', path)).toHaveLength(1);
  });

  it('offers an editor no token to make and no policy to change, and says why', async () => {
    openAs('editor');
    expect(await screen.findByText(/Only admins and owners make API tokens/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New API token' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save policy' })).not.toBeInTheDocument();
    expect(await screen.findByLabelText('Largest budget change per action (%)')).toBeDisabled();
  });
});
