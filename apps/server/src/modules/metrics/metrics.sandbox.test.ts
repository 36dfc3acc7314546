import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRule } from '../../test/rule-factories.ts';
import { connectedUser, HeldScheduler, mirrorEntities, type Session } from '../../test/rules-sandbox.ts';
import { createSandboxTestApp, type SandboxTestApp } from '../../test/test-app.ts';
import { AppMetrics } from './app-metrics.ts';
import { sample, scrapeOf, total } from '../../test/metrics-test-helpers.ts';

const TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';

const held = new HeldScheduler();
let t: SandboxTestApp | undefined;
const app = (): SandboxTestApp => {
  if (!t) throw new Error('app not started');
  return t;
};
let session: Session;
let accounts: Awaited<ReturnType<typeof connectedUser>>['accounts'];
beforeAll(async () => {
  // The metrics are made first, so the test's own Meta client reports into the app's registry.
  t = await createSandboxTestApp(
    { METRICS_TOKEN: TOKEN },
    { metrics: new AppMetrics(), rules: { scheduler: held } },
    { now: () => t?.clock.now ?? new Date() },
  );
  ({ session, accounts } = await connectedUser(app()));
}, 60_000);
afterAll(() => t?.close());

const scrape = async () => (await scrapeOf(app().app, { authorization: `Bearer ${TOKEN}` })).body;

describe('Meta in the metrics', () => {
  it('counts the calls of a connection by endpoint family and outcome, and keeps the usage Meta reported', async () => {
    const body = await scrape();
    for (const kind of ['oauth', 'ad_accounts', 'campaigns', 'ads', 'insights'])
      expect(sample(body, 'adpilot_meta_calls_total', { kind, method: 'GET', outcome: 'ok' }), kind).toBeGreaterThan(0);
    expect(sample(body, 'adpilot_meta_call_duration_seconds_count', { kind: 'campaigns' })).toBeGreaterThan(0);
    // Per ad account, by its numeric id: the only label of the metrics that grows with the tenants' data.
    const account = accounts[0]?.facebookAccountId.replace(/^act_/, '') ?? '';
    const usage = sample(body, 'adpilot_meta_ad_account_usage_percent', { ad_account: account, header: 'ad_account' });
    expect(usage).toBeGreaterThanOrEqual(0);
    expect(body).not.toMatch(/act_\d/);
  });

  it('counts a rate limit, the wait it caused, and the retry that went through', async () => {
    const before = await scrape();
    const account = accounts[0];
    if (!account) throw new Error('no account');
    app().sandbox.sandbox.faults.set({ rateLimit: { count: 1, regainMinutes: 0 } });
    const synced = await app().app.inject({
      method: 'POST',
      url: `/api/ad-accounts/${account.id}/sync`,
      headers: session.auth,
    });
    expect(synced.statusCode).toBe(202);
    const after = await scrape();
    const rateLimited = (body: string) => total(body, 'adpilot_meta_calls_total', { outcome: 'rate_limited' });
    expect(rateLimited(after)).toBe(rateLimited(before) + 1);
    const waits = (body: string) => sample(body, 'adpilot_meta_throttle_waits_total', { reason: 'rate_limit' }) ?? 0;
    expect(waits(after)).toBe(waits(before) + 1);
  });
});

describe('rule actions in the metrics', () => {
  it('counts a proposal, shows it pending until approved, then counts it applied', async () => {
    const account = accounts.find((row) => row.currency === 'THB') ?? accounts[0];
    if (!account) throw new Error('no account');
    const ads = await mirrorEntities(app(), account, 'ad');
    const ad = ads.find(
      (row) => row.status === 'ACTIVE' && ads.filter((other) => other.name.includes(row.name)).length === 1,
    );
    if (!ad) throw new Error('no active ad with a name of its own');
    const created = await app().app.inject({
      method: 'POST',
      url: '/api/rules',
      headers: session.auth,
      payload: buildRule({
        scope: { adAccountIds: [account.id], level: 'ad', statuses: ['ACTIVE'], nameContains: ad.name },
        conditions: { match: 'all', items: [{ metric: 'impressions', operator: 'gte', value: 0, window: 'last_7d' }] },
        actions: [{ type: 'pause' }],
        safeguards: { cooldownHours: 0, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
        mode: 'approve',
      }),
    });
    expect(created.statusCode).toBe(201);
    const before = await scrape();
    const count = (body: string, outcome: string) => sample(body, 'adpilot_rule_actions_total', { outcome }) ?? 0;

    const run = await app().app.inject({
      method: 'POST',
      url: `/api/rules/${created.json().data.id}/run`,
      headers: session.auth,
    });
    expect(run.statusCode).toBe(202);
    for (const { request } of held.take()) await app().modules.rules.runner.run(request);
    const proposed = await scrape();
    expect(count(proposed, 'proposed')).toBe(count(before, 'proposed') + 1);
    expect(sample(proposed, 'adpilot_proposals_pending', {})).toBe(1);

    const list = await app().app.inject({ method: 'GET', url: '/api/proposals?status=pending', headers: session.auth });
    const [proposal] = list.json().data as { id: string }[];
    const approved = await app().app.inject({
      method: 'POST',
      url: `/api/proposals/${proposal?.id}/approve`,
      headers: session.auth,
    });
    expect(approved.statusCode).toBe(200);
    const after = await scrape();
    expect(count(after, 'applied')).toBe(count(before, 'applied') + 1);
    expect(sample(after, 'adpilot_proposals_pending', {})).toBe(0);
    expect(sample(after, 'adpilot_meta_calls_total', { kind: 'batch', method: 'POST', outcome: 'ok' })).toBeGreaterThan(
      0,
    );
  });
});
