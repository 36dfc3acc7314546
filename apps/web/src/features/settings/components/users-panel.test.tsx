import { type AdminWorkspace } from '@adpilot/contracts';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildView } from '../test/settings-view.ts';
import { buildSession, buildUser, fail, mockApi, ok, renderApp, storeSession } from '../../../test/render-app.tsx';

afterEach(() => {
  toast.remove();
  vi.unstubAllGlobals();
  localStorage.clear();
  act(() => setLanguageChoice(null));
});

const ALICE: AdminWorkspace = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'Alice',
  personal: true,
  members: 1,
  owners: [{ id: '00000000-0000-4000-8000-0000000000b1', name: 'Alice', email: 'alice@example.com' }],
  plan: 'free',
};

function openAsAdmin(handlers: Parameters<typeof mockApi>[0] = {}) {
  storeSession(buildSession(buildUser({ role: 'admin' })));
  const api = mockApi({
    'GET /auth/me': ok(buildUser({ role: 'admin' })),
    'GET /settings': ok(buildView()),
    'GET /settings/test-connections': ok({}),
    'GET /admin/workspaces': ok([ALICE]),
    ...handlers,
  });
  renderApp('/settings');
  return api;
}

describe('Settings → Users', () => {
  it("lists the workspaces with owners and plan, and assigns a workspace's plan", async () => {
    const api = openAsAdmin({
      'PUT /admin/workspaces/00000000-0000-4000-8000-0000000000a1/plan': (body) =>
        ok({ ...ALICE, plan: (body as { planId: AdminWorkspace['plan'] }).planId }),
    });
    const user = userEvent.setup();
    const row = (await screen.findByText('Alice (personal)')).closest('li')!;
    expect(within(row).getByText('Alice <alice@example.com>')).toBeInTheDocument();
    const plan = within(row).getByLabelText('Plan of Alice (personal)');
    expect(plan).toHaveValue('free');
    const change = within(row).getByRole('button', { name: 'Change plan of Alice (personal)' });
    expect(change).toBeDisabled();

    await user.selectOptions(plan, 'enterprise');
    await user.click(change);
    expect(await screen.findByText('Alice (personal) is now on the Enterprise plan')).toBeInTheDocument();
    const put = api.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ planId: 'enterprise' });
    expect(change).toBeDisabled();
  });

  it('shows a refusal by its code in Thai', async () => {
    act(() => setLanguageChoice('th'));
    openAsAdmin({
      'PUT /admin/workspaces/00000000-0000-4000-8000-0000000000a1/plan': fail(
        409,
        'SUBSCRIPTION_SAME_PLAN',
        'already on this plan',
      ),
    });
    const user = userEvent.setup();
    const row = (await screen.findByText('Alice (ส่วนตัว)')).closest('li')!;
    await user.selectOptions(within(row).getByLabelText('แผนของ Alice (ส่วนตัว)'), 'pro');
    await user.click(within(row).getByRole('button', { name: 'เปลี่ยนแผนของ Alice (ส่วนตัว)' }));
    expect(await screen.findByText('คุณใช้แผนนี้อยู่แล้ว')).toBeInTheDocument();
  });
});
