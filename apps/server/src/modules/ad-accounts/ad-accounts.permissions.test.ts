import type { RunningSandbox } from '@adpilot/meta-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerConsent, startTestSandbox } from '../../test/meta-sandbox.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let sandbox: RunningSandbox;

beforeAll(async () => {
  const started = await startTestSandbox();
  sandbox = started.running;
  t = await createTestApp({}, { meta: started.provider, scheduler: { enqueueSync: async () => true } });
});
afterAll(async () => {
  await t.close();
  await sandbox.close();
});

type Session = Awaited<ReturnType<typeof registerUser>>;

/** The connect flow with the user leaving only `scopes` ticked on the consent screen. */
async function connectWith(session: Session, scopes: string[]) {
  const started = await t.app.inject({
    method: 'GET',
    url: '/api/ad-accounts/facebook/auth-url',
    headers: session.auth,
  });
  const authUrl = new URL(started.json().data.authUrl);
  authUrl.searchParams.set('scope', scopes.join(','));
  const back = await answerConsent(authUrl.toString());
  return t.app.inject({
    method: 'POST',
    url: '/api/ad-accounts/facebook/callback',
    headers: session.auth,
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
}

describe('granted permissions', () => {
  it('all permissions: accounts are writable and nothing is missing', async () => {
    const session = await registerUser(t.app);
    const response = await connectWith(session, ['ads_read', 'ads_management', 'business_management']);
    const connected = response.json().data.connectedAccounts as { read_only: boolean; missing_scopes: string[] }[];
    expect(connected.length).toBeGreaterThan(0);
    expect(connected.every((account) => !account.read_only && account.missing_scopes.length === 0)).toBe(true);
  });

  it('without ads_management: connected read-only, the missing permission named, writes refused with a clear 403', async () => {
    const session = await registerUser(t.app);
    const response = await connectWith(session, ['ads_read', 'business_management']);
    expect(response.statusCode).toBe(200);
    const connected = response.json().data.connectedAccounts as {
      id: string;
      read_only: boolean;
      missing_scopes: string[];
    }[];
    expect(connected.every((account) => account.read_only && account.missing_scopes.includes('ads_management'))).toBe(
      true,
    );
    const listed = (await t.app.inject({ method: 'GET', url: '/api/ad-accounts', headers: session.auth })).json()
      .data as { read_only: boolean }[];
    expect(listed.every((account) => account.read_only)).toBe(true);

    const id = connected[0]?.id ?? '';
    await expect(t.modules.adAccounts.service.writableAccount(session.scope, id)).rejects.toMatchObject({
      code: 'AD_ACCOUNT_READ_ONLY',
      statusCode: 403,
    });
    // Reconnecting with the permission granted makes the same account writable again.
    await connectWith(session, ['ads_read', 'ads_management', 'business_management']);
    const writable = await t.modules.adAccounts.service.writableAccount(session.scope, id);
    expect(writable.accessToken.startsWith('EAAS')).toBe(true);
  });

  it('without any ads permission: the connection is refused and nothing is stored', async () => {
    const session = await registerUser(t.app);
    const response = await connectWith(session, ['business_management']);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ success: false, code: 'META_PERMISSION_MISSING' });
    const listed = await t.app.inject({ method: 'GET', url: '/api/ad-accounts', headers: session.auth });
    expect(listed.json().data).toEqual([]);
  });

  it("another user's account answers 404, not its permissions", async () => {
    const owner = await registerUser(t.app);
    const connected = (await connectWith(owner, ['ads_read'])).json().data.connectedAccounts as { id: string }[];
    const stranger = await registerUser(t.app);
    await expect(
      t.modules.adAccounts.service.writableAccount(stranger.scope, connected[0]?.id ?? ''),
    ).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});
