import { SUBSCRIPTION_MESSAGES } from '@adpilot/contracts';
import { adAccounts } from '@adpilot/db';
import type { RunningSandbox } from '@adpilot/meta-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerConsent, startTestSandbox } from '../../test/meta-sandbox.ts';
import { choosePlan, createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { createWorkspace } from '../../test/workspace-fixtures.ts';

let t: TestApp;
let sandbox: RunningSandbox;

/** Each listing of the accounts starts one further along, so parallel connections each bring a different first one. */
let listings = 0;

beforeAll(async () => {
  const started = await startTestSandbox();
  sandbox = started.running;
  const real = started.provider.client();
  const client = new Proxy(real, {
    get(target, property, receiver) {
      if (property !== 'listAdAccounts') return Reflect.get(target, property, receiver);
      return async (token: string) => {
        const accounts = await real.listAdAccounts(token);
        const shift = (listings += 1) % accounts.length;
        return [...accounts.slice(shift), ...accounts.slice(0, shift)];
      };
    },
  });
  t = await createTestApp(
    {},
    { meta: { ...started.provider, client: () => client }, scheduler: { enqueueSync: async () => true } },
  );
});
afterAll(async () => {
  await t.close();
  await sandbox.close();
});

type Session = Awaited<ReturnType<typeof registerUser>>;

/** The consent round trip (in `workspaceId`, the personal one by default); answers the callback's response. */
async function connect(session: Session, workspaceId = session.workspaceId) {
  const headers = { ...session.auth, 'x-workspace-id': workspaceId };
  const auth = await t.app.inject({ method: 'GET', url: '/api/ad-accounts/facebook/auth-url', headers });
  const back = await answerConsent(auth.json().data.authUrl);
  return t.app.inject({
    method: 'POST',
    url: '/api/ad-accounts/facebook/callback',
    headers,
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
}

const storedAccounts = (workspaceId: string) =>
  t.inspect((db) => db.select().from(adAccounts).where(eq(adAccounts.workspaceId, workspaceId)));

describe('the ad-account limit on connect', () => {
  it('connects up to the limit, succeeds, and names the accounts left out', async () => {
    const session = await registerUser(t.app);
    const response = await connect(session);
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.connectedAccounts).toHaveLength(1);
    expect(data.adAccountLimit).toBe(1);
    expect(data.leftOutAccounts.length).toBeGreaterThanOrEqual(2);
    expect(data.leftOutAccounts[0]).toEqual({
      facebook_account_id: expect.any(String),
      facebook_account_name: expect.any(String),
    });
    expect(await storedAccounts(session.workspaceId)).toHaveLength(1);

    // Connecting again reconnects the stored one (no room for the rest): still a success.
    const again = await connect(session);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.connectedAccounts.map((a: { id: string }) => a.id)).toEqual(
      data.connectedAccounts.map((a: { id: string }) => a.id),
    );
    expect(again.json().data.leftOutAccounts).toHaveLength(data.leftOutAccounts.length);
    expect(await storedAccounts(session.workspaceId)).toHaveLength(1);
  });

  it('allows as many as the plan below the limit (pro: 5), and every account on enterprise (-1)', async () => {
    const pro = await registerUser(t.app);
    await choosePlan(t.app, pro, 'pro');
    const proAnswer = (await connect(pro)).json().data;
    const total = proAnswer.connectedAccounts.length + proAnswer.leftOutAccounts.length;
    expect(proAnswer.connectedAccounts).toHaveLength(Math.min(5, total));
    const enterprise = await registerUser(t.app);
    await choosePlan(t.app, enterprise, 'enterprise');
    const enterpriseAnswer = (await connect(enterprise)).json().data;
    expect(enterpriseAnswer).toMatchObject({ leftOutAccounts: [], adAccountLimit: -1 });
    expect(enterpriseAnswer.connectedAccounts).toHaveLength(total);
  });

  it('refuses only when no account at all can be connected, with the way to make room', async () => {
    const session = await registerUser(t.app);
    await t.inspect((db) =>
      db.insert(adAccounts).values({
        workspaceId: session.workspaceId,
        facebookAccountId: '999000111',
        facebookAccountName: 'Elsewhere',
        metaAccountStatus: 1,
        currency: 'THB',
        timezone: 'Asia/Bangkok',
        accessTokenEnc: 'v1.none',
      }),
    );
    const response = await connect(session);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      code: 'AD_ACCOUNT_LIMIT_REACHED',
      message: SUBSCRIPTION_MESSAGES.adAccountLimit,
      params: { plan: 'free', limit: 1 },
    });
    expect(SUBSCRIPTION_MESSAGES.adAccountLimit).toMatch(/Disconnect one, or upgrade/);
    expect(await storedAccounts(session.workspaceId)).toHaveLength(1);
  });

  it('pools the limit across the payer’s workspaces: Pro’s 5 exactly, connecting in four at once (ADR 0110)', async () => {
    const owner = await registerUser(t.app);
    await choosePlan(t.app, owner, 'pro');
    const all = [
      owner.workspaceId,
      await createWorkspace(t, owner, 'Client A'),
      await createWorkspace(t, owner, 'Client B'),
      await createWorkspace(t, owner, 'Client C'),
    ];
    const answers = await Promise.all(all.flatMap((id) => [connect(owner, id), connect(owner, id)]));
    const stored = (await Promise.all(all.map((id) => storedAccounts(id)))).map((rows) => rows.length);
    expect(stored.reduce((a, b) => a + b, 0)).toBe(5);
    // Each workspace's world offers more than the pool has left: the ones without room are refused, naming Pro's 5.
    for (const answer of answers.filter((a) => a.statusCode !== 200)) {
      expect(answer.json()).toMatchObject({ code: 'AD_ACCOUNT_LIMIT_REACHED', params: { plan: 'pro', limit: 5 } });
    }
    const current = await t.app.inject({ method: 'GET', url: '/api/subscription/current', headers: owner.auth });
    expect(current.json().data).toMatchObject({ adAccountsUsed: 5, adAccountsLimit: 5 });
  });

  it('holds against parallel connections bringing different accounts first', async () => {
    const session = await registerUser(t.app);
    const answers = await Promise.all([connect(session), connect(session), connect(session)]);
    // The first to take the lock connects its first account; the others find no room for theirs and reconnect it.
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const stored = await storedAccounts(session.workspaceId);
    expect(stored).toHaveLength(1);
    for (const answer of answers) {
      expect(answer.json().data.connectedAccounts.map((a: { id: string }) => a.id)).toEqual([stored[0]?.id]);
    }
  });
});
