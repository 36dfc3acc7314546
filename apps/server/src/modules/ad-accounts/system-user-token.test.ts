import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { registerUser } from '../../test/test-app.ts';
import { rulesSandboxApp } from '../../test/rules-sandbox.ts';
import { createWorkspace, joinAs, putOnPlan } from '../../test/workspace-fixtures.ts';
import { WORKSPACE_HEADER } from '@adpilot/contracts';

const { app } = rulesSandboxApp();

type Account = { id: string; facebook_account_id: string; token_kind: string; token_expires_at: string | null };

const connect = (auth: Record<string, string>, token: string) =>
  app().app.inject({
    method: 'POST',
    url: '/api/ad-accounts/system-user',
    headers: auth,
    payload: { access_token: token },
  });
const list = async (auth: Record<string, string>) =>
  (await app().app.inject({ method: 'GET', url: '/api/ad-accounts', headers: auth })).json().data as Account[];

describe("an agency's accounts through a Business Manager system user's token (ADR 0190)", () => {
  it('connects with a never-expiring token: system_user, no end, the token sealed and repeated nowhere', async () => {
    app().clock.now = new Date('2026-12-03T10:00:00.000Z');
    const owner = await registerUser(app().app);
    const token = app().sandbox.sandbox.issueSystemUserToken();
    const response = await connect(owner.auth, token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).not.toContain(token);
    const accounts = await list(owner.auth);
    expect(accounts.length).toBeGreaterThan(0);
    for (const account of accounts)
      expect(account).toMatchObject({ token_kind: 'system_user', token_expires_at: null });

    const stored = (await app().inspect((db) =>
      db.execute(sql`select access_token_enc as sealed, token_kind as kind from ad_accounts
        where workspace_id = ${owner.workspaceId}`),
    )) as unknown as { rows: { sealed: string; kind: string }[] };
    for (const row of stored.rows) {
      expect(row.kind).toBe('system_user');
      expect(row.sealed).not.toContain(token.slice(4, 40));
    }
    const logged = (await app().inspect((db) =>
      db.execute(sql`select count(*)::int as n from activity_logs
        where workspace_id = ${owner.workspaceId} and (description like ${`%${token.slice(4, 40)}%`}
          or metadata::text like ${`%${token.slice(4, 40)}%`})`),
    )) as unknown as { rows: { n: number }[] };
    expect(logged.rows[0]?.n).toBe(0);

    // The sandbox answers the stored token for the account's data: the first sync ran on it.
    const sync = await app().app.inject({
      method: 'POST',
      url: `/api/ad-accounts/${accounts[0]!.id}/sync`,
      headers: owner.auth,
    });
    expect(sync.statusCode).toBe(202);
  });

  it("counts down a 60-day system user token like a person's", async () => {
    app().clock.now = new Date('2026-12-03T10:00:00.000Z');
    const owner = await registerUser(app().app);
    const response = await connect(owner.auth, app().sandbox.sandbox.issueSystemUserToken({ expiresIn60Days: true }));
    expect(response.statusCode, response.body).toBe(200);
    const expected = new Date(Date.parse('2026-12-03T10:00:00.000Z') + 60 * 86_400_000).toISOString();
    for (const account of await list(owner.auth))
      expect(account).toMatchObject({ token_kind: 'system_user', token_expires_at: expected });
  });

  it("refuses a person's token and an invalid one, connecting nothing", async () => {
    const owner = await registerUser(app().app);
    const personal = await connect(owner.auth, app().sandbox.sandbox.issueToken());
    expect(personal.statusCode).toBe(400);
    expect(personal.json().code).toBe('META_TOKEN_NOT_SYSTEM_USER');
    const invalid = await connect(owner.auth, 'EAASnot-a-real-token-at-all.signature');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().code).toBe('META_TOKEN_INVALID');
    expect(await list(owner.auth)).toEqual([]);
  });

  it('is an admin step of the workspace, and the accounts stay in it', async () => {
    const owner = await registerUser(app().app);
    const shared = await createWorkspace(app(), owner);
    await putOnPlan(app(), shared, 'enterprise');
    const editor = await joinAs(app(), owner, shared, 'editor');
    const admin = await joinAs(app(), owner, shared, 'admin');
    const inShared = (session: { auth: Record<string, string> }) => ({ ...session.auth, [WORKSPACE_HEADER]: shared });
    const token = app().sandbox.sandbox.issueSystemUserToken();

    const refused = await connect(inShared(editor), token);
    expect(refused.statusCode).toBe(403);
    expect(await list(inShared(owner))).toEqual([]);

    const connected = await connect(inShared(admin), token);
    expect(connected.statusCode, connected.body).toBe(200);
    const accounts = await list(inShared(owner));
    expect(accounts.length).toBeGreaterThan(0);

    // Another advertiser sees none of them, and cannot reach one by its id.
    const stranger = await registerUser(app().app);
    expect(await list(stranger.auth)).toEqual([]);
    const foreign = await app().app.inject({
      method: 'GET',
      url: `/api/ad-accounts/${accounts[0]!.id}`,
      headers: stranger.auth,
    });
    expect(foreign.statusCode).toBe(404);
    // The owner's personal workspace is another tenant too.
    expect(await list(owner.auth)).toEqual([]);
  });
});
