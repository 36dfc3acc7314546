import { refreshTokens, selectRows, users } from '@adpilot/db';
import { like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { asOwner, buildUser, createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

/**
 * Runs `work` with a plans table of the given plan ids, or with none (`null`), whether or not billing's own
 * `subscription_plans` exists: that one is moved aside meanwhile and put back.
 */
async function withPlansTable<T>(t: TestApp, planIds: string[] | null, work: () => Promise<T>): Promise<T> {
  const [row] = await t.inspect((db) =>
    selectRows<{ present: boolean }>(db, sql`select to_regclass('public.subscription_plans') is not null as present`),
  );
  const present = row?.present === true;
  if (present) await asOwner(t, sql`alter table subscription_plans rename to subscription_plans_aside`);
  try {
    if (planIds) {
      await asOwner(t, sql`create table subscription_plans (id text primary key, name text not null)`);
      await asOwner(t, sql`grant select on subscription_plans to adpilot_system`);
      for (const id of planIds) await asOwner(t, sql`insert into subscription_plans values (${id}, ${`Plan ${id}`})`);
    }
    return await work();
  } finally {
    if (planIds) await asOwner(t, sql`drop table subscription_plans`);
    if (present) await asOwner(t, sql`alter table subscription_plans_aside rename to subscription_plans`);
  }
}

type Session = Awaited<ReturnType<typeof registerUser>>;

/** The administrator of the instance under test (the first account); before there is one, nobody's headers. */
let admin: Session | undefined;
const asAdmin = () => admin?.auth ?? {};
const run = (t: TestApp, test: string, remoteAddress?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/diagnostics/tests/${test}`,
    headers: asAdmin(),
    ...(remoteAddress ? { remoteAddress } : {}),
  });

describe('diagnostics (the Test page), enabled', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerUser(t.app);
  });
  afterAll(async () => {
    admin = undefined;
    await t.close();
  });

  it('answers the environment block to the administrator', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/diagnostics', headers: asAdmin() });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      enabled: true,
      environment: {
        mode: 'test',
        database: t.database.kind,
        versions: { node: process.version, database: expect.stringMatching(/^\d+/) },
        providers: { ai: 'builtin', meta: 'sandbox', billing: 'local', mail: 'outbox' },
        missing: expect.arrayContaining(['app_secret', 'openai_key', 'smtp']),
      },
    });
  });

  it('passes the database, authentication and row-level security checks', async () => {
    for (const [test, code] of [
      ['database', 'database_connected'],
      ['auth', 'auth_working'],
      ['rls', 'rls_configured'],
    ] as const) {
      const response = await run(t, test);
      expect(response.statusCode, test).toBe(200);
      expect(response.json().data, test).toMatchObject({ test, status: 'passed', code });
    }
    // The probe users and their row are gone again.
    const left = await t.inspect((db) => db.select().from(users).where(like(users.email, 'diagnostics-%')));
    expect(left).toEqual([]);
  });

  it('fails the row-level security check when a policy lets another user read the row', async () => {
    // What other tests of this file left (their sign-ups' tokens): the probe's own rows must not add to it.
    const tokensBefore = await t.inspect((db) => db.select().from(refreshTokens));
    await asOwner(t, sql`create policy diagnostics_leak on refresh_tokens for select to adpilot_app using (true)`);
    try {
      expect((await run(t, 'rls')).json().data).toMatchObject({ status: 'failed', code: 'rls_leak' });
    } finally {
      await asOwner(t, sql`drop policy diagnostics_leak on refresh_tokens`);
    }
    expect((await run(t, 'rls')).json().data).toMatchObject({ status: 'passed' });
    expect(await t.inspect((db) => db.select().from(refreshTokens))).toEqual(tokensBefore);
  });

  it('counts users and says so when there is no plans table', async () => {
    await registerUser(t.app);
    const result = await withPlansTable(t, null, async () => (await run(t, 'database-access')).json().data);
    const count = (await t.inspect((db) => db.select().from(users))).length;
    expect(result).toMatchObject({
      status: 'warning',
      code: 'database_access_no_plans_table',
      params: { users: count },
    });
  });

  it('lists up to 5 plans from the plans table', async () => {
    const result = await withPlansTable(
      t,
      ['business', 'enterprise', 'free', 'pro', 'team', 'zeta'],
      async () => (await run(t, 'database-access')).json().data,
    );
    expect(result).toMatchObject({ status: 'passed', code: 'database_access_completed' });
    expect(result.params.plans).toHaveLength(5);
    expect(result.params.plans[0]).toEqual({ id: 'business', name: 'Plan business' });
  });

  it('registers a throwaway user, signs in as it and deletes it, also when run in parallel', async () => {
    const before = (await t.inspect((db) => db.select().from(users))).length;
    const results = await Promise.all([run(t, 'registration'), run(t, 'registration'), run(t, 'registration')]);
    for (const response of results)
      expect(response.json().data).toMatchObject({ status: 'passed', code: 'registration_completed' });
    expect((await t.inspect((db) => db.select().from(users))).length).toBe(before);
  });

  it('gives one address ten registration probes and sixty checks an hour, counted atomically in parallel', async () => {
    const from = (remoteAddress: string, test: string) => run(t, test, remoteAddress);
    const probes = await Promise.all(Array.from({ length: 13 }, () => from('198.51.100.7', 'registration')));
    const statuses = probes.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429, 429, 429]);
    const refused = probes.find((response) => response.statusCode === 429)!;
    expect(refused.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3_000);
    // The other checks still run from that address, up to their own budget; ten were spent by the probes.
    const checks = await Promise.all(Array.from({ length: 51 }, () => from('198.51.100.7', 'database')));
    expect(checks.filter((response) => response.statusCode === 200)).toHaveLength(50);
    expect(checks.filter((response) => response.statusCode === 429)).toHaveLength(1);
    // Another address is not affected.
    expect((await from('198.51.100.8', 'registration')).json().data.code).toBe('registration_completed');
  });

  it('refuses an unknown test with a 400', async () => {
    expect((await run(t, 'everything')).statusCode).toBe(400);
  });
});

describe('who may use diagnostics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '0' });
  });
  afterAll(() => t.close());

  const info = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/diagnostics', headers });
  const check = (test: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/diagnostics/tests/${test}`, headers });
  const countUsers = async () => (await t.inspect((db) => db.select().from(users))).length;

  it('is open on a fresh instance, and once it has an administrator answers only to them', async () => {
    expect((await info()).statusCode).toBe(200);
    expect((await check('database')).json().data).toMatchObject({ status: 'passed' });

    const owner = await registerUser(t.app);
    const member = await registerUser(t.app);
    expect(owner.user.role).toBe('admin');
    const before = await countUsers();
    for (const [headers, status, code] of [
      [{}, 401, 'UNAUTHORIZED'],
      [member.auth, 403, 'FORBIDDEN'],
    ] as const) {
      const refused = await info(headers);
      expect(refused.statusCode).toBe(status);
      expect(refused.json()).toMatchObject({ success: false, code });
      expect(refused.body).not.toContain(process.version);
      for (const test of ['database', 'auth', 'rls', 'database-access', 'registration'])
        expect((await check(test, headers)).statusCode, test).toBe(status);
    }
    // The refused checks wrote nothing: no probe user was made.
    expect(await countUsers()).toBe(before);
    expect((await info(owner.auth)).json().data).toMatchObject({ enabled: true });
    expect((await check('registration', owner.auth)).json().data).toMatchObject({ status: 'passed' });
  });
});

describe('probe users and the first administrator', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '0' });
  });
  afterAll(() => t.close());

  it('the owner registering while probes run in parallel becomes the administrator; no probe ever does', async () => {
    // Probes keep coming, several at a time and each from an address of its own (the per-address budgets stay
    // out of the way), until the owner's registration has answered: one of them always holds a probe user.
    let registered = false;
    let next = 0;
    const probe = async () => {
      while (!registered) {
        next += 1;
        const test = next % 2 === 0 ? 'rls' : 'registration';
        const remoteAddress = `198.18.${Math.floor(next / 250)}.${(next % 250) + 1}`;
        await t.app.inject({ method: 'POST', url: `/api/diagnostics/tests/${test}`, remoteAddress });
        // A refusal answers without any I/O: let the rest of the process run between two of them.
        await new Promise(setImmediate);
      }
    };
    const probes = Array.from({ length: 6 }, () => probe());
    await t.app.inject({ method: 'POST', url: '/api/diagnostics/tests/database' });
    // Registered once a probe user exists, so the two are sure to overlap.
    for (let tries = 0; tries < 200; tries++) {
      const [row] = await t.inspect((db) =>
        selectRows<{ n: number }>(db, sql`select count(*)::int as n from users where email like 'diagnostics-%'`),
      );
      if ((row?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const owner = await t.app
      .inject({ method: 'POST', url: '/api/auth/register', payload: buildUser({ email: 'owner@example.com' }) })
      .finally(() => {
        registered = true;
      });
    await Promise.all(probes);
    expect(next).toBeGreaterThan(6);
    expect(owner.statusCode).toBe(201);
    expect(owner.json().data.user.role).toBe('admin');
    const admins = await t.inspect((db) =>
      selectRows<{ email: string }>(db, sql`select email from users where role = 'admin'`),
    );
    expect(admins).toEqual([{ email: 'owner@example.com' }]);
    expect(await t.inspect((db) => db.select().from(users).where(like(users.email, 'diagnostics-%')))).toEqual([]);
    // And the page is the owner's now.
    expect((await t.app.inject({ method: 'GET', url: '/api/diagnostics' })).statusCode).toBe(401);
  });

  it('an account on the probe domain is never the administrator, nor keeps the owner from being it', async () => {
    const fresh = await createTestApp({ RATE_LIMIT_MAX: '0' });
    try {
      const created = await fresh.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          name: 'Looks like a probe',
          email: 'diagnostics-signup-x@adpilot.invalid',
          password: 'Pr0be-Pass-word',
        },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json().data.user.role).toBe('user');
      // It does not make the owner's account the second one either.
      expect((await registerUser(fresh.app)).user.role).toBe('admin');
    } finally {
      await fresh.close();
    }
  });
});

describe('diagnostics, disabled', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DIAGNOSTICS_ENABLED: 'false' });
  });
  afterAll(() => t.close());

  it('shows only that they are off, and refuses every check with 403', async () => {
    const info = await t.app.inject({ method: 'GET', url: '/api/diagnostics' });
    expect(info.json().data).toEqual({ enabled: false });
    for (const test of ['database', 'auth', 'rls', 'database-access', 'registration']) {
      const refused = await run(t, test);
      expect(refused.statusCode, test).toBe(403);
      expect(refused.json()).toMatchObject({ success: false, code: 'DIAGNOSTICS_DISABLED' });
    }
  });
});

describe('when diagnostics are on (ADR 0045)', () => {
  it('is on for the embedded default, also under npm start, and off for production on Postgres unless asked', () => {
    expect(loadConfig({}).diagnosticsEnabled).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).diagnosticsEnabled).toBe(true);
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/adpilot' };
    expect(loadConfig(production).diagnosticsEnabled).toBe(false);
    expect(loadConfig({ ...production, DIAGNOSTICS_ENABLED: 'true' }).diagnosticsEnabled).toBe(true);
    expect(loadConfig({ DIAGNOSTICS_ENABLED: 'false' }).diagnosticsEnabled).toBe(false);
  });
});
