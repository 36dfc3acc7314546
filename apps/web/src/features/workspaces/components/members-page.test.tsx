import type { Workspace } from '@adpilot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { chooseWorkspace, WORKSPACE_STORAGE_KEY } from '../../../lib/current-workspace.ts';
import { renderApp, storeSession } from '../../../test/render-app.tsx';
import {
  buildInvitation,
  buildMember,
  buildWorkspace,
  fail,
  fakeApi,
  ME,
  meAs,
  ok,
  PERSONAL,
} from '../test/fixtures.ts';

const OWNER = buildMember({
  userId: '00000000-0000-4000-8000-0000000000c2',
  name: 'Olivia Owner',
  email: 'olivia@example.com',
  role: 'owner',
});
const EDITOR = buildMember();
const PENDING = buildInvitation();

/** The user works in a team workspace with `role`, beside an owner and an editor. */
function openMembersAs(role: Workspace['role'], invitations = [PENDING]) {
  const team = buildWorkspace({ role });
  storeSession();
  chooseWorkspace(team.id);
  const base = `/workspaces/${team.id}`;
  const server = fakeApi({
    'GET /auth/me': ok(ME),
    'GET /workspaces': ok([PERSONAL, team]),
    [`GET ${base}/members`]: ok([meAs(role), OWNER, EDITOR]),
    [`GET ${base}/invitations`]: ok(invitations),
  });
  const user = userEvent.setup();
  renderApp('/members');
  return { server, user, team, base };
}

describe('the Members page', () => {
  it('lets an owner invite and change roles', async () => {
    const { server, user, base } = openMembersAs('owner');
    server.on(`POST ${base}/invitations`, ok(buildInvitation({ email: 'ann@example.com' }), 201));
    server.on(`PATCH ${base}/members/${EDITOR.userId}`, ok({ ...EDITOR, role: 'viewer' }));

    await user.type(await screen.findByLabelText('Email address'), 'Ann@Example.com');
    await user.selectOptions(screen.getByLabelText('Role'), 'admin');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    await waitFor(() =>
      expect(server.callsTo('POST', `${base}/invitations`)[0]?.body).toEqual({
        email: 'ann@example.com',
        role: 'admin',
      }),
    );

    await user.selectOptions(screen.getByLabelText(`Role of ${EDITOR.name}`), 'viewer');
    await waitFor(() =>
      expect(server.callsTo('PATCH', `${base}/members/${EDITOR.userId}`)[0]?.body).toEqual({ role: 'viewer' }),
    );
    // An owner may change another owner too.
    expect(screen.getByLabelText(`Role of ${OWNER.name}`)).toBeInTheDocument();
  });

  it('lets an owner resend and revoke an invitation', async () => {
    const { server, user, base } = openMembersAs('owner');
    server.on(`DELETE ${base}/invitations/${PENDING.id}`, { status: 204, body: null });
    server.on(`POST ${base}/invitations/${PENDING.id}/resend`, ok({}));

    await user.click(await screen.findByRole('button', { name: `Resend the invitation to ${PENDING.email}` }));
    await user.click(screen.getByRole('button', { name: `Revoke the invitation to ${PENDING.email}` }));
    await waitFor(() => expect(server.callsTo('DELETE', `${base}/invitations/${PENDING.id}`)).toHaveLength(1));
    expect(server.callsTo('POST', `${base}/invitations/${PENDING.id}/resend`)).toHaveLength(1);
  });

  it('says the mail will follow when the mail server could not take it yet', async () => {
    const { server, user, base } = openMembersAs('owner');
    server.on(
      `POST ${base}/invitations`,
      ok({ ...buildInvitation({ email: 'ann@example.com' }), mail: 'queued' }, 201),
    );
    server.on(`POST ${base}/invitations/${PENDING.id}/resend`, ok({ ...PENDING, mail: 'queued' }));
    await user.type(await screen.findByLabelText('Email address'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(
      await screen.findByText('Invitation saved: the mail to ann@example.com will follow shortly'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `Resend the invitation to ${PENDING.email}` }));
    expect(
      await screen.findByText(`Invitation saved: the mail to ${PENDING.email} will follow shortly`),
    ).toBeInTheDocument();
  });

  it('lets an owner rename the workspace and delete it after typing its name', async () => {
    const { server, user, team, base } = openMembersAs('owner');
    server.on(`PATCH ${base}`, ok({ ...team, name: 'Acme Thailand' }));
    server.on(`DELETE ${base}`, { status: 204, body: null });

    const name = await screen.findByLabelText('Workspace name');
    await user.clear(name);
    await user.type(name, 'Acme Thailand');
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(server.callsTo('PATCH', base)[0]?.body).toEqual({ name: 'Acme Thailand' }));

    await user.click(screen.getByRole('button', { name: 'Delete workspace' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete for everyone' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText(`Type ${team.name} to confirm`), team.name);
    await user.click(confirm);
    await waitFor(() => expect(server.callsTo('DELETE', base)).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(sessionStorage.getItem(WORKSPACE_STORAGE_KEY)).toBe(PERSONAL.id);
  });

  it('lets an admin manage members but not owners, nor make one, and shows no owner settings', async () => {
    const { user, base, server } = openMembersAs('admin');
    server.on(`DELETE ${base}/members/${EDITOR.userId}`, { status: 204, body: null });
    const editorRole = await screen.findByLabelText(`Role of ${EDITOR.name}`);
    expect(within(editorRole).queryByRole('option', { name: 'Owner' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(`Role of ${OWNER.name}`)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `Remove ${OWNER.name}` })).not.toBeInTheDocument();
    expect(within(screen.getByLabelText('Role')).queryByRole('option', { name: 'Owner' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete workspace' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: `Remove ${EDITOR.name}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this member?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(server.callsTo('DELETE', `${base}/members/${EDITOR.userId}`)).toHaveLength(1));
  });

  it("offers an admin no re-send nor withdrawal of an owner's invitation, which only an owner may touch", async () => {
    const ownerInvite = buildInvitation({
      id: '00000000-0000-4000-8000-0000000000d2',
      email: 'future-owner@example.com',
      role: 'owner',
    });
    openMembersAs('admin', [PENDING, ownerInvite]);
    expect(await screen.findByText(ownerInvite.email)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Resend the invitation to ${PENDING.email}` })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Revoke the invitation to ${PENDING.email}` })).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: `Resend the invitation to ${ownerInvite.email}` }),
    ).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: `Revoke the invitation to ${ownerInvite.email}` }),
    ).not.toBeInTheDocument();
  });

  it('lets an owner resend and revoke an owner invitation', async () => {
    const ownerInvite = buildInvitation({ email: 'future-owner@example.com', role: 'owner' });
    openMembersAs('owner', [ownerInvite]);
    expect(
      await screen.findByRole('button', { name: `Resend the invitation to ${ownerInvite.email}` }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Revoke the invitation to ${ownerInvite.email}` })).toBeInTheDocument();
  });

  it('shows a seat refusal with the way to a bigger plan', async () => {
    const { user, base, server } = openMembersAs('admin');
    server.on(
      `POST ${base}/invitations`,
      fail(403, 'SEAT_LIMIT_REACHED', 'No seat left', undefined, { plan: 'free', limit: 1 }),
    );
    await user.type(await screen.findByLabelText('Email address'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText(/Your Free plan has 1 seat across all its workspaces/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See plans and upgrade' })).toHaveAttribute('href', '/subscription');
  });

  it('shows a viewer the list read-only, says why, and lets them leave', async () => {
    const { user, base, server } = openMembersAs('viewer');
    server.on(`DELETE ${base}/members/${ME.id}`, { status: 204, body: null });
    expect(await screen.findByText(EDITOR.email)).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('only admins and owners can invite people');
    expect(screen.queryByRole('combobox', { name: /^Role of/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Email address')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(server.callsTo('GET', `${base}/invitations`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Leave workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave this workspace?' });
    await user.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(server.callsTo('DELETE', `${base}/members/${ME.id}`)).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(sessionStorage.getItem(WORKSPACE_STORAGE_KEY)).toBe(PERSONAL.id);
  });
});
