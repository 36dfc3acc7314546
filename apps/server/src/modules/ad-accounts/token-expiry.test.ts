import { describe, expect, it } from 'vitest';
import { connectedUser, rulesSandboxApp } from '../../test/rules-sandbox.ts';

const { app } = rulesSandboxApp();

describe("the Meta token's end on the ad account (ADR 0126)", () => {
  it("stores debug_token's expires_at at connection and answers it on each account", async () => {
    app().clock.now = new Date('2026-12-03T10:00:00.000Z');
    const { session } = await connectedUser(app());
    const response = await app().app.inject({ method: 'GET', url: '/api/ad-accounts', headers: session.auth });
    expect(response.statusCode).toBe(200);
    const accounts = response.json().data as { token_expires_at: string | null }[];
    expect(accounts.length).toBeGreaterThan(0);
    // The sandbox's long-lived token, as Meta's: 5,183,944 s (60 days) from its exchange.
    const expected = new Date(Date.parse('2026-12-03T10:00:00.000Z') + 5_183_944_000).toISOString();
    for (const account of accounts) expect(account.token_expires_at).toBe(expected);
  });

  it('answers the pinned Marketing API version and its end, null while Meta has not dated v27.0', async () => {
    const { session } = await connectedUser(app());
    const response = await app().app.inject({ method: 'GET', url: '/api/ad-accounts', headers: session.auth });
    const accounts = response.json().data as { api_version: string | null; api_version_ends_at: string | null }[];
    expect(accounts.length).toBeGreaterThan(0);
    for (const account of accounts) expect(account).toMatchObject({ api_version: 'v27.0', api_version_ends_at: null });
  });
});
