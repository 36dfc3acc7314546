import { localDate } from '@adpilot/contracts';
import { adAccounts, adEntities, insightsDaily, ruleActions, type AdAccountRow } from '@adpilot/db';
import { adsManagerCookie, type RunningSandbox, type SandboxSeed } from '@adpilot/meta-sandbox';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { RuleRunRequest, RuleRunScheduler } from '../modules/rules/runs/rule-run-scheduler.ts';
import { adsManagerHolderText } from '../providers/meta/meta-provider.ts';
import { answerConsent } from './meta-sandbox.ts';
import { createSandboxTestApp, registerUser, type SandboxTestApp, type TestApp } from './test-app.ts';

export type Session = Awaited<ReturnType<typeof registerUser>>;

/** Moves the test app's clock and signs the user in again (the access token lives 15 minutes). */
export async function signedInLater(t: TestApp, session: Session, ms: number): Promise<Session> {
  t.clock.advance(ms);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: session.user.email, password: session.password },
  });
  if (response.statusCode !== 200) throw new Error(response.body);
  return { ...session, auth: { authorization: `Bearer ${response.json().data.token}` } };
}

/** A scheduler that keeps what it was asked, so a test decides when (and how often) each run happens. */
export class HeldScheduler implements RuleRunScheduler {
  readonly held: { request: RuleRunRequest; startAfter?: Date }[] = [];
  async enqueueRun(request: RuleRunRequest, options: { startAfter?: Date } = {}): Promise<string> {
    this.held.push({ request, ...(options.startAfter ? { startAfter: options.startAfter } : {}) });
    return String(this.held.length);
  }
  take() {
    return this.held.splice(0, this.held.length);
  }
}

/**
 * A rules test file's app on its own Meta sandbox, which keeps the app's clock (so "today", spend and Meta's hourly
 * budget limit move with it), with rule runs held until the test drains them. Registers the file's hooks: start and
 * close, and before each test a fresh sandbox world (earlier tests' pauses and budgets gone) and no held run.
 */
export function rulesSandboxApp(sandboxOptions: { seed?: SandboxSeed } = {}) {
  const held = new HeldScheduler();
  let started: SandboxTestApp | undefined;
  const app = (): SandboxTestApp => {
    if (!started) throw new Error('app not started');
    return started;
  };
  beforeAll(async () => {
    started = await createSandboxTestApp(
      {},
      { rules: { scheduler: held } },
      { ...sandboxOptions, now: () => started?.clock.now ?? new Date() },
    );
  });
  afterAll(async () => {
    await started?.close();
  });
  beforeEach(() => {
    app().sandbox.sandbox.reset();
    held.take();
  });
  const rules = (session: Session, method: 'GET' | 'POST', url: string, payload?: object) =>
    app().app.inject({ method, url: `/api/rules${url}`, headers: session.auth, ...(payload ? { payload } : {}) });
  /** Runs what "Run now" queued (and any later attempt it asked for), the way the queue's worker would. */
  async function drain(): Promise<void> {
    for (let batch = held.take(); batch.length > 0; batch = held.take()) {
      for (const { request } of batch) await app().modules.rules.runner.run(request);
    }
  }
  return {
    app,
    held,
    rules,
    sandbox: (): RunningSandbox => app().sandbox,
    async createRule(session: Session, body: object): Promise<{ id: string }> {
      const response = await rules(session, 'POST', '', body);
      if (response.statusCode !== 201) throw new Error(response.body);
      return response.json().data;
    },
    drain,
    /** "Run now" on the rule, run to its end: the run's id. */
    async runNow(session: Session, ruleId: string): Promise<string> {
      const response = await rules(session, 'POST', `/${ruleId}/run`);
      expect(response.statusCode).toBe(202);
      await drain();
      return response.json().data.runId;
    },
    /** The rule's newest run as its history answers it (actions, skipped …). */
    async latestRun(session: Session, ruleId: string) {
      return (await rules(session, 'GET', `/${ruleId}/runs`)).json().data[0];
    },
  };
}

/** The connected account in baht (the sandbox's first user has one). */
export function thbAccount(accounts: AdAccountRow[]): AdAccountRow {
  const account = accounts.find((row) => row.currency === 'THB');
  if (!account) throw new Error('no THB account');
  return account;
}

/**
 * Signs a new user up and connects every account of a sandbox user (synced in line by the app): the first one, or
 * the one whose id is `persona`.
 */
export async function connectedUser(
  t: TestApp,
  persona?: string,
): Promise<{ session: Session; accounts: AdAccountRow[] }> {
  const session = await registerUser(t.app);
  const { authUrl } = (
    await t.app.inject({ method: 'GET', url: '/api/ad-accounts/facebook/auth-url', headers: session.auth })
  ).json().data;
  const back = await answerConsent(authUrl, 'allow', persona);
  const connected = await t.app.inject({
    method: 'POST',
    url: '/api/ad-accounts/facebook/callback',
    headers: session.auth,
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  if (connected.statusCode !== 200) throw new Error(`connect failed: ${connected.body}`);
  const accounts = await t.inspect((db) =>
    db.select().from(adAccounts).where(eq(adAccounts.workspaceId, session.workspaceId)),
  );
  return { session, accounts };
}

/** Per ad of an account, spend and conversions over the `days` whole local days before today (the mirror's rows). */
export async function adTotals(t: TestApp, account: AdAccountRow, days: number) {
  const today = localDate(account.timezone, t.clock.now.getTime());
  const since = new Date(`${today}T00:00:00Z`);
  since.setUTCDate(since.getUTCDate() - days);
  const from = since.toISOString().slice(0, 10);
  const rows = await t.inspect((db) =>
    db
      .select()
      .from(insightsDaily)
      .where(and(eq(insightsDaily.adAccountId, account.id), eq(insightsDaily.level, 'ad'))),
  );
  const totals = new Map<string, { spend: number; conversions: number; conversionValue: number }>();
  for (const row of rows) {
    if (row.date < from || row.date >= today) continue;
    const total = totals.get(row.entityExternalId) ?? { spend: 0, conversions: 0, conversionValue: 0 };
    total.spend += row.spend;
    total.conversions += row.conversions;
    total.conversionValue += row.conversionValue;
    totals.set(row.entityExternalId, total);
  }
  return totals;
}

export async function mirrorEntities(t: TestApp, account: AdAccountRow, level: 'campaign' | 'adset' | 'ad') {
  return t.inspect((db) =>
    db
      .select()
      .from(adEntities)
      .where(and(eq(adEntities.adAccountId, account.id), eq(adEntities.level, level))),
  );
}

export async function ledgerOf(t: TestApp, ruleId: string) {
  return t.inspect((db) => db.select().from(ruleActions).where(eq(ruleActions.ruleId, ruleId)));
}

/** The writes the sandbox accepted for one object. */
export function writesTo(sandbox: RunningSandbox, objectId: string) {
  return sandbox.sandbox.mutations.filter((mutation) => mutation.objectId === objectId);
}

/**
 * A person's change on the sandbox's Ads Manager page: posts its edit form as a browser on that page would (same
 * origin), through the link AdPilot signed for `as` (a member who may edit), so the change is recorded as theirs.
 */
export async function editInAdsManager(
  sandbox: RunningSandbox,
  as: Session,
  change: { act: string; id: string; status: 'ACTIVE' | 'PAUSED'; dailyBudget?: string },
): Promise<void> {
  // As a person does: through the signed link AdPilot hands out, whose cookie lets the browser edit the account.
  const holder = adsManagerHolderText({ workspaceId: as.workspaceId, userId: as.user.id });
  const cookie = await adsManagerCookie(
    sandbox.sandbox.adsManager.link(`${sandbox.url}/adsmanager`, change.act, holder),
  );
  const response = await fetch(`${sandbox.url}/adsmanager/edit`, {
    method: 'POST',
    headers: { origin: new URL(sandbox.url).origin, cookie },
    body: new URLSearchParams({
      act: change.act,
      id: change.id,
      status: change.status,
      ...(change.dailyBudget !== undefined ? { daily_budget: change.dailyBudget } : {}),
    }),
    redirect: 'manual',
  });
  if (response.status !== 303) throw new Error(`the edit form answered ${response.status}: ${await response.text()}`);
}
