import { WORKSPACE_HEADER } from '@adpilot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  buildMember,
  buildWorkspace,
  fakeApi,
  ME,
  meAs,
  ok,
  PERSONAL,
} from '../../features/workspaces/test/fixtures.ts';
import { WORKSPACE_STORAGE_KEY } from '../../lib/current-workspace.ts';
import { renderApp, storeSession } from '../../test/render-app.tsx';

const ACME = buildWorkspace({ role: 'admin' });

function serve() {
  storeSession();
  return fakeApi({
    'GET /auth/me': ok(ME),
    'GET /workspaces': ok([PERSONAL, ACME]),
    [`GET /workspaces/${PERSONAL.id}/members`]: ok([meAs('owner')]),
    [`GET /workspaces/${ACME.id}/members`]: ok([meAs('admin'), buildMember()]),
    [`GET /workspaces/${PERSONAL.id}/invitations`]: ok([]),
    [`GET /workspaces/${ACME.id}/invitations`]: ok([]),
  });
}

describe('the workspace switcher', () => {
  it('shows the current workspace and role, and switches the tab to another one', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderApp('/members');
    const toggle = await screen.findByRole('button', { name: /switch workspace/i });
    await waitFor(() => expect(toggle).toHaveTextContent('PersonalOwner'));

    await user.click(toggle);
    const list = screen.getByRole('list', { name: 'Your workspaces' });
    expect(within(list).getByRole('button', { name: /Personal/ })).toHaveAttribute('aria-current', 'true');
    await user.click(within(list).getByRole('button', { name: /Acme Agency/ }));

    expect(sessionStorage.getItem(WORKSPACE_STORAGE_KEY)).toBe(ACME.id);
    expect(await screen.findByText('Somchai Client')).toBeInTheDocument();
    expect(toggle).toHaveTextContent('Acme AgencyAdmin');
    expect(screen.getByTestId('location')).toHaveTextContent('/members');
    // What the page reads now goes to the new workspace.
    const lastMembersCall = server.calls.filter((call) => call.path === `/workspaces/${ACME.id}/members`).at(-1);
    expect(lastMembersCall?.headers[WORKSPACE_HEADER]).toBe(ACME.id);
  });

  it('creates a workspace from a small dialog and works in it', async () => {
    const server = serve();
    const created = buildWorkspace({ id: '00000000-0000-4000-8000-0000000000ee', name: 'New Client' });
    server.on('POST /workspaces', ok(created, 201));
    const user = userEvent.setup();
    renderApp('/members');
    await user.click(await screen.findByRole('button', { name: /switch workspace/i }));
    await user.click(screen.getByRole('button', { name: 'Create workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a workspace' });
    await user.type(within(dialog).getByLabelText('Workspace name'), 'New Client');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(sessionStorage.getItem(WORKSPACE_STORAGE_KEY)).toBe(created.id));
    expect(server.callsTo('POST', '/workspaces')[0]?.body).toEqual({ name: 'New Client' });
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
  });

  it('falls back to the personal workspace when the stored one is no longer the user’s', async () => {
    sessionStorage.setItem(WORKSPACE_STORAGE_KEY, '00000000-0000-4000-8000-000000000404');
    serve();
    renderApp('/members');
    const toggle = await screen.findByRole('button', { name: /switch workspace/i });
    await waitFor(() => expect(toggle).toHaveTextContent('PersonalOwner'));
    expect(sessionStorage.getItem(WORKSPACE_STORAGE_KEY)).toBeNull();
  });
});
