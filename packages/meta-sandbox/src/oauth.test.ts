import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetaInvalidParameterError, MetaTokenExpiredError } from '@adpilot/meta';
import { startFixture, type Fixture } from '../test/fixtures.ts';
import { LONG_TOKEN_SECONDS } from './auth/tokens.ts';

const REDIRECT = 'https://app.example.com/ad-accounts/callback';
const SCOPES = ['ads_read', 'ads_management', 'business_management'];

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture({ prefix: '/sandbox/meta' });
});
afterAll(() => fixture.close());

async function consent(decision: 'allow' | 'cancel', overrides: Record<string, string> = {}): Promise<URL> {
  const form = new URLSearchParams({
    client_id: fixture.sandbox.appId,
    redirect_uri: REDIRECT,
    state: 'state-123',
    scope: SCOPES.join(','),
    decision,
    ...overrides,
  });
  const response = await fetch(`${fixture.url}/v27.0/dialog/oauth`, { method: 'POST', body: form, redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location') ?? '');
}

describe('OAuth dialog', () => {
  it('shows a script-free consent page with the permissions, the sandbox users and both buttons', async () => {
    const url = fixture.client().getDialogUrl({ redirectUri: REDIRECT, state: 'state-123', scopes: SCOPES });
    expect(url).toContain('/sandbox/meta/v27.0/dialog/oauth?client_id=sandbox-app');
    const response = await fetch(url);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self' https://app.example.com");
    expect(html).toContain('<title>AdPilot Sandbox — Facebook Login</title>');
    expect(html).toContain('simulated Facebook login');
    for (const scope of SCOPES) expect(html).toContain(scope);
    expect(html).toContain('Sandbox Store Owner');
    expect(html).toContain('Sandbox Agency Manager');
    expect(html).toMatch(/value="allow"[^>]*>Allow</);
    expect(html).toMatch(/value="cancel"[^>]*>Cancel</);
    expect(html).not.toContain('<script');
  });

  it('refuses a dialog without client_id or redirect_uri, or with another app id', async () => {
    for (const query of [
      'redirect_uri=https%3A%2F%2Fa.example',
      'client_id=sandbox-app',
      'client_id=other&redirect_uri=https%3A%2F%2Fa.example',
    ]) {
      const response = await fetch(`${fixture.url}/v27.0/dialog/oauth?${query}`);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('class="error"');
    }
  });

  it('redirects Allow with a code and the state, Cancel with user_denied', async () => {
    const allowed = await consent('allow');
    expect(`${allowed.origin}${allowed.pathname}`).toBe(REDIRECT);
    expect(allowed.searchParams.get('code')).toMatch(/^AQ/);
    expect(allowed.searchParams.get('state')).toBe('state-123');

    const denied = await consent('cancel');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('error_reason')).toBe('user_denied');
    expect(denied.searchParams.get('error_description')).toBeTruthy();
    expect(denied.searchParams.get('state')).toBe('state-123');
    expect(denied.searchParams.has('code')).toBe(false);
  });
});

describe('token exchange', () => {
  it('turns a code into a short token, then a long-lived one that reads the chosen user’s accounts', async () => {
    const client = fixture.client();
    const agency = fixture.sandbox.personas[1];
    const code = (await consent('allow', { persona: agency?.id ?? '' })).searchParams.get('code') ?? '';
    const short = await client.exchangeCode({ code, redirectUri: REDIRECT });
    expect(short.tokenType).toBe('bearer');
    expect(short.expiresIn).toBeGreaterThan(0);
    const long = await client.exchangeLongLivedToken(short.accessToken);
    expect(long.expiresIn).toBe(LONG_TOKEN_SECONDS);
    expect(long.accessToken).not.toBe(short.accessToken);

    const accounts = await client.listAdAccounts(long.accessToken);
    expect(accounts.map((account) => account.account_id)).toEqual(agency?.accountIds);

    const info = await client.debugToken(long.accessToken);
    expect(info).toMatchObject({ is_valid: true, type: 'USER', user_id: agency?.id, scopes: SCOPES });
  });

  it('refuses a used code and a redirect_uri that is not byte-identical', async () => {
    const client = fixture.client();
    const code = (await consent('allow')).searchParams.get('code') ?? '';
    await expect(client.exchangeCode({ code, redirectUri: `${REDIRECT}/` })).rejects.toMatchObject({
      code: 100,
      subcode: 36008,
    });
    await client.exchangeCode({ code, redirectUri: REDIRECT });
    const reuse = client.exchangeCode({ code, redirectUri: REDIRECT });
    await expect(reuse).rejects.toBeInstanceOf(MetaInvalidParameterError);
    await expect(reuse).rejects.toMatchObject({ subcode: 36009 });
  });

  it('expires codes after ten minutes and checks the client secret', async () => {
    const code = (await consent('allow')).searchParams.get('code') ?? '';
    await expect(
      fixture.client({ appSecret: 'wrong-secret' }).exchangeCode({ code, redirectUri: REDIRECT }),
    ).rejects.toBeInstanceOf(MetaInvalidParameterError);
    fixture.clock.advance(10 * 60_000 + 1);
    await expect(fixture.client().exchangeCode({ code, redirectUri: REDIRECT })).rejects.toMatchObject({
      code: 100,
      subcode: 36007,
    });
  });

  it('rejects forged and expired tokens with code 190', async () => {
    const client = fixture.client();
    await expect(client.listAdAccounts('EAASforged.signature')).rejects.toBeInstanceOf(MetaTokenExpiredError);
    const shortLived = fixture.sandbox.issueToken(undefined, SCOPES, 60);
    fixture.clock.advance(61_000);
    await expect(client.listAdAccounts(shortLived)).rejects.toMatchObject({ code: 190, subcode: 463 });
    expect(await client.debugToken(shortLived)).toMatchObject({ is_valid: false });
  });
});
