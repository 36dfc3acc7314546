import { screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail as failWith } from '../../../test/fake-api.ts';
import { chooseWorkspace } from '../../../lib/current-workspace.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildAdAccount, fakeApi, ok } from '../test/fake-api.ts';
import { renderAdAccountsPage } from '../test/render-page.tsx';

const TEAM = '00000000-0000-4000-8000-00000000000c';
const TOKEN = 'EAAsystemuser0123456789abcdef';

afterEach(() => {
  toast.remove();
  vi.unstubAllGlobals();
  setLanguageChoice('en');
});

/** The Ad Accounts page of a team workspace the user holds `role` in. */
function openAs(role: 'viewer' | 'editor' | 'admin' | 'owner', routes: Parameters<typeof fakeApi>[0] = {}) {
  chooseWorkspace(TEAM);
  const api = fakeApi({
    'GET /ad-accounts': ok([buildAdAccount({ facebook_account_name: 'Existing' })]),
    'GET /workspaces': ok([{ id: TEAM, name: 'Acme Agency', role, personal: false }]),
    ...routes,
  });
  return { api, ...renderAdAccountsPage() };
}

describe('Connect with a system-user token', () => {
  it.each(['viewer', 'editor'] as const)('is not offered to a %s', async (role) => {
    openAs(role);
    expect(await screen.findByRole('article', { name: 'Existing' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Connect with a system-user token' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('System user access token')).not.toBeInTheDocument();
  });

  it('lets an admin paste a masked token and lists the accounts it connected and those left out', async () => {
    const connected = buildAdAccount({ facebook_account_name: 'Client A', facebook_account_id: 'act_777' });
    const { api, user } = openAs('admin', {
      'POST /ad-accounts/system-user': ok({
        connectedAccounts: [connected],
        leftOutAccounts: [{ facebook_account_id: 'act_888', facebook_account_name: 'Client B' }],
        adAccountLimit: 2,
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Connect with a system-user token' }));
    const field = screen.getByLabelText('System user access token');
    expect(field).toHaveAttribute('type', 'password');
    await user.type(field, TOKEN);
    await user.click(screen.getByRole('button', { name: 'Connect the accounts it reaches' }));

    const status = (await screen.findByText('Connected 1 ad account:')).closest('[role="status"]');
    expect(status).toHaveTextContent('Client A (act_777)');
    expect(status).toHaveTextContent('these were not connected: Client B');
    expect(api.callsTo('POST', '/ad-accounts/system-user').map((call) => call.body)).toEqual([{ access_token: TOKEN }]);
    // The secret is cleared once used.
    expect(screen.getByLabelText('System user access token')).toHaveValue('');
  });

  it('says a refusal by its code, in Thai for a Thai reader, and checks a short token before sending', async () => {
    setLanguageChoice('th');
    const { api, user } = openAs('owner', {
      'POST /ad-accounts/system-user': failWith(400, 'META_TOKEN_NOT_SYSTEM_USER', 'Not a system user token'),
    });
    await user.click(await screen.findByRole('button', { name: 'เชื่อมต่อด้วยโทเค็นผู้ใช้ระบบ' }));
    const field = screen.getByLabelText('โทเค็นการเข้าถึงของผู้ใช้ระบบ');
    await user.type(field, 'short');
    await user.click(screen.getByRole('button', { name: 'เชื่อมต่อบัญชีที่เข้าถึงได้' }));
    expect(screen.getByText('วางโทเค็นให้ครบ: โทเค็นยาวอย่างน้อย 20 ตัวอักษร')).toBeInTheDocument();
    expect(api.callsTo('POST', '/ad-accounts/system-user')).toHaveLength(0);

    await user.clear(field);
    await user.type(field, TOKEN);
    await user.click(screen.getByRole('button', { name: 'เชื่อมต่อบัญชีที่เข้าถึงได้' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'โทเค็นนี้ไม่ใช่ของผู้ใช้ระบบใน Business Manager โปรดสร้างโทเค็นให้ผู้ใช้ระบบของธุรกิจแล้ววางที่นี่',
    );
  });
});
