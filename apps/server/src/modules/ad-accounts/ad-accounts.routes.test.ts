import { adAccounts, activityLogs, adEntities, insightsDaily } from '@adpilot/db';
import { adsManagerCookie, type RunningSandbox } from '@adpilot/meta-sandbox';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerConsent } from '../../test/meta-sandbox.ts';
import { buildRule } from '../../test/rule-factories.ts';
import { choosePlan, createSandboxTestApp, registerUser, type SandboxTestApp } from '../../test/test-app.ts';

let t: SandboxTestApp;
let sandbox: RunningSandbox;

beforeAll(async () => {
  t = await createSandboxTestApp();
  sandbox = t.sandbox;
});
afterAll(() => t.close());

type Session = Awaited<ReturnType<typeof registerUser>>;
const call = (session: Session, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/ad-accounts${url}`, headers: session.auth, ...(payload ? { payload } : {}) });

async function connect(session: Session) {
  const { authUrl } = (await call(session, 'GET', '/facebook/auth-url')).json().data;
  const back = await answerConsent(authUrl);
  const response = await call(session, 'POST', '/facebook/callback', {
    code: back.searchParams.get('code'),
    state: back.searchParams.get('state'),
  });
  return response;
}

describe('connect flow', () => {
  it('gives an authorisation address with a state, our redirect and the ads permissions', async () => {
    const session = await registerUser(t.app);
    const response = await call(session, 'GET', '/facebook/auth-url');
    expect(response.statusCode).toBe(200);
    const url = new URL(response.json().data.authUrl);
    expect(url.pathname).toMatch(/\/v27\.0\/dialog\/oauth$/);
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:3000/ad-accounts');
    expect(url.searchParams.get('scope')).toContain('ads_management');
    expect(url.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
    const alias = await call(session, 'POST', '/connect');
    expect(alias.json().data.authUrl).toContain('/dialog/oauth');
  });

  it('connects every account of the authorisation, stores the token encrypted and never shows it', async () => {
    const session = await registerUser(t.app);
    // A plan with room for every account of the sandbox; the plan's limit is tested in ad-account-limit.pg.test.ts.
    await choosePlan(t.app, session, 'enterprise');
    const response = await connect(session);
    expect(response.statusCode).toBe(200);
    const connected = response.json().data.connectedAccounts;
    expect(connected.length).toBeGreaterThanOrEqual(3);
    expect(response.body).not.toMatch(/access_?token/i);
    const currencies = connected.map((a: { currency: string }) => a.currency);
    expect(currencies).toEqual(expect.arrayContaining(['THB', 'USD']));
    const thai = connected.find((a: { currency: string }) => a.currency === 'THB');
    expect(thai).toMatchObject({ timezone: 'Asia/Bangkok', is_sandbox: true, account_status: 'active' });
    expect(
      connected.some(
        (a: { account_status: string; status_reason: string | null }) =>
          a.account_status === 'inactive' && a.status_reason,
      ),
    ).toBe(true);

    const [row] = await t.inspect((db) =>
      db.select().from(adAccounts).where(eq(adAccounts.workspaceId, session.workspaceId)).limit(1),
    );
    expect(row?.accessTokenEnc).toMatch(/^v1\./);
    const token = t.secretBox.decrypt(row?.accessTokenEnc ?? '');
    expect(row?.accessTokenEnc).not.toContain(token);
    expect((await call(session, 'GET', '/')).body).not.toContain(token);
  });

  it('hands out "View in Facebook" as a signed link that opens the sandbox page, which a guess does not', async () => {
    const session = await registerUser(t.app);
    await connect(session);
    const [account] = (await call(session, 'GET', '/')).json().data as { ads_manager_url: string }[];
    const link = new URL(account?.ads_manager_url ?? '');
    expect(link.searchParams.get('sig')).toMatch(/^[\w-]{43}$/);
    const act = link.searchParams.get('act') ?? '';
    const guessed = await fetch(`${sandbox.url}/adsmanager?act=${encodeURIComponent(act)}`);
    expect(guessed.status).toBe(403);
    const cookie = await adsManagerCookie(`${sandbox.url}/adsmanager${link.search}`);
    const opened = await fetch(`${sandbox.url}/adsmanager?act=${encodeURIComponent(act)}`, { headers: { cookie } });
    expect(opened.status).toBe(200);
  });

  it('refuses a forged state, a reused one, another user’s and an expired one', async () => {
    const session = await registerUser(t.app);
    const other = await registerUser(t.app);
    const forged = await call(session, 'POST', '/facebook/callback', { code: 'anything', state: 'forged-state' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('INVALID_STATE');

    const { authUrl } = (await call(session, 'GET', '/facebook/auth-url')).json().data;
    const back = await answerConsent(authUrl);
    const body = { code: back.searchParams.get('code'), state: back.searchParams.get('state') };
    expect((await call(other, 'POST', '/facebook/callback', body)).json().code).toBe('INVALID_STATE');
    expect((await call(session, 'POST', '/facebook/callback', body)).statusCode).toBe(200);
    expect((await call(session, 'POST', '/facebook/callback', body)).json().code).toBe('INVALID_STATE');

    const late = await answerConsent((await call(session, 'GET', '/facebook/auth-url')).json().data.authUrl);
    t.clock.advance(11 * 60 * 1000);
    const expired = await call(session, 'POST', '/facebook/callback', {
      code: late.searchParams.get('code'),
      state: late.searchParams.get('state'),
    });
    expect(expired.json().code).toBe('INVALID_STATE');
  });

  it('reconnecting the same accounts updates them instead of duplicating', async () => {
    const session = await registerUser(t.app);
    const first = (await connect(session)).json().data.connectedAccounts.length;
    await connect(session);
    expect((await call(session, 'GET', '/')).json().data).toHaveLength(first);
  });

  it('answers 502 with a clear message, not 500, when Meta fails the exchange', async () => {
    const session = await registerUser(t.app);
    const { authUrl } = (await call(session, 'GET', '/facebook/auth-url')).json().data;
    const back = await answerConsent(authUrl);
    sandbox.sandbox.faults.set({ serverError: { count: 50 } });
    try {
      const response = await call(session, 'POST', '/facebook/callback', {
        code: back.searchParams.get('code'),
        state: back.searchParams.get('state'),
      });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({ success: false, code: 'META_ERROR' });
    } finally {
      sandbox.sandbox.faults.clear();
    }
  });
});

describe('sync', () => {
  it('mirrors entities and 30 days of daily insights, and stats add them up', async () => {
    const session = await registerUser(t.app);
    const [account] = (await connect(session))
      .json()
      .data.connectedAccounts.filter((a: { account_status: string }) => a.account_status === 'active');
    const listed = (await call(session, 'GET', '/')).json().data.find((a: { id: string }) => a.id === account.id);
    expect(listed.last_sync).not.toBeNull();
    expect(listed.sync_status).toBe('idle');

    const detail = (await call(session, 'GET', `/${account.id}`)).json().data;
    expect(detail.counts.campaigns).toBeGreaterThan(0);
    expect(detail.counts.ads).toBeGreaterThan(detail.counts.campaigns);

    const stats = (await call(session, 'GET', `/${account.id}/stats`)).json().data;
    expect(stats.currency).toBe(account.currency);
    expect(stats.daily.length).toBeGreaterThanOrEqual(28);
    expect(stats.totals.spend).toBeGreaterThan(0);
    const summed = stats.daily.reduce((total: number, day: { spend: number }) => total + day.spend, 0);
    expect(stats.totals.spend).toBeCloseTo(summed, 0);
    expect(stats.totals.cpc).toBeCloseTo(stats.totals.spend / stats.totals.clicks, 2);

    // Roll-ups: each campaign's day equals the sum of its ads' days.
    const rows = await t.inspect((db) =>
      db.select().from(insightsDaily).where(eq(insightsDaily.adAccountId, account.id)),
    );
    const day = rows.find((r) => r.level === 'campaign');
    const ads = await t.inspect((db) =>
      db
        .select()
        .from(adEntities)
        .where(
          and(eq(adEntities.adAccountId, account.id), eq(adEntities.campaignExternalId, day?.entityExternalId ?? '')),
        ),
    );
    const adIds = new Set(ads.filter((a) => a.level === 'ad').map((a) => a.externalId));
    const adSpend = rows
      .filter((r) => r.level === 'ad' && r.date === day?.date && adIds.has(r.entityExternalId))
      .reduce((total, r) => total + r.spend, 0);
    expect(day?.spend).toBeCloseTo(adSpend, 2);
  });

  it("stores Meta's min_daily_budget in minor units on connect and refreshes it on every sync", async () => {
    const session = await registerUser(t.app);
    await choosePlan(t.app, session, 'enterprise');
    await connect(session);
    const stored = () =>
      t.inspect((db) =>
        db
          .select({ id: adAccounts.id, currency: adAccounts.currency, minimum: adAccounts.minDailyBudget })
          .from(adAccounts)
          .where(eq(adAccounts.workspaceId, session.workspaceId)),
      );
    const byCurrency = (rows: Awaited<ReturnType<typeof stored>>) =>
      Object.fromEntries(rows.map((row) => [row.currency, row.minimum]));
    // What the sandbox serves: one US dollar's worth, in cents, satang and euro cents.
    expect(byCurrency(await stored())).toEqual({ THB: 3500, USD: 100, EUR: 92 });

    // An account stored before the minimum was read (or by an older version) gets it from its next sync.
    const thai = (await stored()).find((row) => row.currency === 'THB')!;
    await t.inspect((db) => db.update(adAccounts).set({ minDailyBudget: null }).where(eq(adAccounts.id, thai.id)));
    expect((await call(session, 'POST', `/${thai.id}/sync`)).statusCode).toBe(202);
    expect(byCurrency(await stored()).THB).toBe(3500);
  });

  it('is idempotent: a second sync changes no counts', async () => {
    const session = await registerUser(t.app);
    const [account] = (await connect(session)).json().data.connectedAccounts;
    const count = async () =>
      (await t.inspect((db) => db.select().from(insightsDaily).where(eq(insightsDaily.adAccountId, account.id))))
        .length;
    const before = await count();
    expect((await call(session, 'POST', `/${account.id}/sync`)).statusCode).toBe(202);
    expect(await count()).toBe(before);
  });

  it('narrows stats to start_date/end_date and validates them', async () => {
    const session = await registerUser(t.app);
    const [account] = (await connect(session)).json().data.connectedAccounts;
    const all = (await call(session, 'GET', `/${account.id}/stats`)).json().data;
    const lastDay = all.end_date;
    const one = (await call(session, 'GET', `/${account.id}/stats?start_date=${lastDay}&end_date=${lastDay}`)).json()
      .data;
    expect(one.daily.length).toBeLessThanOrEqual(1);
    expect((await call(session, 'GET', `/${account.id}/stats?start_date=yesterday`)).statusCode).toBe(400);
    expect(
      (await call(session, 'GET', `/${account.id}/stats?start_date=2026-02-10&end_date=2026-02-01`)).statusCode,
    ).toBe(400);
  });

  it('marks the account for re-authorisation when Meta says the token expired, and logs it', async () => {
    const session = await registerUser(t.app);
    const [account] = (await connect(session)).json().data.connectedAccounts;
    sandbox.sandbox.faults.set({ expiredToken: true });
    try {
      await t.modules.adAccounts.sync.sync(session.scope, account.id, { final: false });
    } finally {
      sandbox.sandbox.faults.clear();
    }
    const listed = (await call(session, 'GET', '/')).json().data.find((a: { id: string }) => a.id === account.id);
    // Stored as codes: the web words them in the reader's language; the description is their plain English.
    expect(listed).toMatchObject({ needs_reauth: true, sync_status: 'error', last_sync_error: 'access_expired' });
    const logs = await t.inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, session.workspaceId), eq(activityLogs.level, 'error'))),
    );
    const expired = logs.find((log) => log.metadata.code === 'sync_access_expired');
    expect(expired?.metadata.params).toEqual({ accountName: listed.facebook_account_name });
    expect(expired?.description).toContain('expired');
    const connected = await t.inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, session.workspaceId), eq(activityLogs.category, 'connection'))),
    );
    expect(connected.map((log) => log.metadata.code)).toContain('account_connected');
    expect(connected[0]?.metadata.params).toMatchObject({
      accountId: expect.any(String),
      accountName: expect.any(String),
    });
    const sync = await call(session, 'POST', `/${account.id}/sync`);
    expect(sync.statusCode).toBe(409);
    expect(sync.json().code).toBe('META_REAUTH_REQUIRED');
    await connect(session);
    expect(
      (await call(session, 'GET', '/')).json().data.find((a: { id: string }) => a.id === account.id).needs_reauth,
    ).toBe(false);
  });
});

describe('sync failures are stored as codes', () => {
  it('a last failed attempt keeps the reason code on the account and a sync_failed entry with its parameters', async () => {
    const session = await registerUser(t.app);
    const [account] = (await connect(session)).json().data.connectedAccounts;
    sandbox.sandbox.faults.set({ serverError: { count: 50 } });
    try {
      expect(await t.modules.adAccounts.sync.sync(session.scope, account.id, { final: true })).toEqual({
        status: 'failed',
      });
    } finally {
      sandbox.sandbox.faults.clear();
    }
    const listed = (await call(session, 'GET', '/')).json().data.find((a: { id: string }) => a.id === account.id);
    expect(listed).toMatchObject({ sync_status: 'error', last_sync_error: 'meta_unavailable' });
    const logs = await t.inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, session.workspaceId), eq(activityLogs.category, 'sync'))),
    );
    expect(logs).toHaveLength(1);
    expect(logs[0]!.metadata).toMatchObject({
      code: 'sync_failed',
      params: { accountName: listed.facebook_account_name, reason: 'meta_unavailable', detail: expect.any(String) },
    });
    expect(logs[0]!.description).toMatch(/^Sync of .* failed: Facebook is temporarily unavailable/);
  });
});

describe('tenant isolation and edits', () => {
  it('answers 404 for another user’s account on every route', async () => {
    const owner = await registerUser(t.app);
    const intruder = await registerUser(t.app);
    const [account] = (await connect(owner)).json().data.connectedAccounts;
    expect((await call(intruder, 'GET', '/')).json().data).toEqual([]);
    for (const [method, url, payload] of [
      ['GET', `/${account.id}`],
      ['GET', `/${account.id}/stats`],
      ['POST', `/${account.id}/sync`],
      ['PATCH', `/${account.id}`, { auto_sync: false }],
      ['DELETE', `/${account.id}`],
    ] as const) {
      const response = await call(intruder, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(owner, 'GET', `/${account.id}`)).statusCode).toBe(200);
  });

  it('updates the name and auto-sync, and rejects empty or unknown fields', async () => {
    const session = await registerUser(t.app);
    const [account] = (await connect(session)).json().data.connectedAccounts;
    const response = await call(session, 'PATCH', `/${account.id}`, {
      facebook_account_name: 'Bangkok shop',
      auto_sync: false,
    });
    expect(response.json().data).toMatchObject({ facebook_account_name: 'Bangkok shop', auto_sync: false });
    expect((await call(session, 'PATCH', `/${account.id}`, {})).statusCode).toBe(400);
    expect((await call(session, 'PATCH', `/${account.id}`, { access_token_enc: 'x' })).statusCode).toBe(400);
    expect((await call(session, 'GET', '/not-a-uuid')).statusCode).toBe(400);
  });

  it('disconnects: the account, its entities and insights are gone', async () => {
    const session = await registerUser(t.app);
    const [account] = (await connect(session)).json().data.connectedAccounts;
    expect((await call(session, 'DELETE', `/${account.id}`)).statusCode).toBe(200);
    expect((await call(session, 'GET', `/${account.id}`)).statusCode).toBe(404);
    expect(await t.inspect((db) => db.select().from(adEntities).where(eq(adEntities.adAccountId, account.id)))).toEqual(
      [],
    );
  });

  it('disconnects: rules stop naming the account, and one left naming none is switched off, not widened', async () => {
    const session = await registerUser(t.app);
    await choosePlan(t.app, session, 'pro');
    const [gone, kept] = (await connect(session)).json().data.connectedAccounts;
    const rules = (url = '') => t.app.inject({ method: 'GET', url: `/api/rules${url}`, headers: session.auth });
    const create = async (adAccountIds: string[]) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/rules',
        headers: session.auth,
        payload: buildRule({ isActive: true, scope: { adAccountIds, level: 'ad' } }),
      });
      expect(response.statusCode).toBe(201);
      return response.json().data as { id: string; name: string };
    };
    const only = await create([gone.id]);
    const both = await create([gone.id, kept.id]);
    const other = await create([kept.id]);

    expect((await call(session, 'DELETE', `/${gone.id}`)).statusCode).toBe(200);

    const after = new Map(
      (await rules())
        .json()
        .data.map((rule: { id: string; isActive: boolean; scope: { adAccountIds: string[] } }) => [
          rule.id,
          { isActive: rule.isActive, adAccountIds: rule.scope.adAccountIds },
        ]),
    );
    expect(after.get(only.id)).toEqual({ isActive: false, adAccountIds: [] });
    expect(after.get(both.id)).toEqual({ isActive: true, adAccountIds: [kept.id] });
    expect(after.get(other.id)).toEqual({ isActive: true, adAccountIds: [kept.id] });
    // The rule can be edited again: nothing in it names an account the user no longer has.
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/rules/${both.id}`,
      headers: session.auth,
      payload: { name: 'Renamed after the disconnection' },
    });
    expect(renamed.statusCode).toBe(200);
    const [entry] = await t.inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, session.workspaceId), eq(activityLogs.category, 'connection')))
        .orderBy(desc(activityLogs.seq))
        .limit(1),
    );
    expect(entry?.level).toBe('warning');
    expect(entry?.metadata).toMatchObject({ code: 'account_disconnected', params: { rules: [only.name] } });
    // The stored English (exports, search) names the rules switched off too.
    expect(entry?.description).toMatch(
      new RegExp(`^Disconnected ad account .+; switched off the rules that named only this account: ${only.name}$`),
    );
  });

  it('requires authentication', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/ad-accounts' })).statusCode).toBe(401);
  });
});
