import type { EntityActionResult, EntityRow, Proposal } from '@adpilot/contracts';
import { adAccounts, ruleActions, type AdAccountRow } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  connectedUser,
  rulesSandboxApp,
  thbAccount,
  writesTo,
  type Session,
  signedInLater,
} from '../../test/rules-sandbox.ts';
import { joinAs, createWorkspace, putOnPlan } from '../../test/workspace-fixtures.ts';

// One buyer whose account has at least twelve ad sets holding their own daily budgets (five campaigns of three, some
// of them paused or on a lifetime budget), and one campaign budget.
const { app, sandbox } = rulesSandboxApp({
  seed: {
    seed: 'manual-actions',
    personas: [
      {
        name: 'Bulk Buyer',
        accounts: [
          {
            name: 'Bulk Store',
            currency: 'THB',
            timezone: 'Asia/Bangkok',
            campaigns: 6,
            adSetsPerCampaign: 3,
            adsPerAdSet: 1,
            cboCampaigns: 1,
          },
        ],
      },
    ],
  },
});

const HOUR = 3_600_000;

type Item = { entityId: string; type: string; amount?: number; percent?: number };

const act = (auth: Record<string, string>, payload: object) =>
  app().app.inject({ method: 'POST', url: '/api/entities/actions', headers: auth, payload });

async function acted(session: Session, payload: { items: Item[]; key?: string; propose?: boolean }) {
  const response = await act(session.auth, payload);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as EntityActionResult[];
}

async function entities(session: Session, account: AdAccountRow, level: 'adset' | 'ad'): Promise<EntityRow[]> {
  const response = await app().app.inject({
    method: 'GET',
    url: `/api/entities?level=${level}&adAccountId=${account.id}&limit=500`,
    headers: session.auth,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** Ad sets of the user's accounts holding their own daily budget (no campaign budget above them). */
async function ownBudgetAdSets(session: Session, accounts: AdAccountRow[], count: number): Promise<EntityRow[]> {
  const all = (await Promise.all(accounts.map((account) => entities(session, account, 'adset')))).flat();
  const rows = all.filter(
    (row) => ['ACTIVE', 'PAUSED'].includes(row.status) && row.budget.holderId === row.id && row.budget.daily !== null,
  );
  if (rows.length < count) throw new Error(`only ${rows.length} ad sets with their own daily budget`);
  return rows.slice(0, count);
}

async function logs(session: Session) {
  const response = await app().app.inject({ method: 'GET', url: '/api/logs?limit=100', headers: session.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.logs as { code: string; actor: { id: string; name: string } | null; metadata: object }[];
}

/** Moves the clock and signs in again (the access token lives 15 minutes). */
const later = (session: Session, ms: number) => signedInLater(app(), session, ms);

const budgetWrites = (externalId: string) =>
  writesTo(sandbox(), externalId).filter((mutation) => mutation.dailyBudget !== undefined);

describe('POST /api/entities/actions', () => {
  it('pauses an ad by hand: Meta written once, the person as actor in Activity, reverted by the revert route', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const ad = (await entities(session, account, 'ad')).find((row) => row.status === 'ACTIVE');
    if (!ad) throw new Error('no active ad');
    const before = writesTo(sandbox(), ad.externalId).length;

    const [result] = await acted(session, { items: [{ entityId: ad.id, type: 'pause' }], key: 'pause-1' });
    expect(result).toMatchObject({ entityId: ad.id, outcome: 'applied', from: 'ACTIVE', to: 'PAUSED' });
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(before + 1);

    // The same request again (a retry): the same row answers, nothing is written twice.
    const [again] = await acted(session, { items: [{ entityId: ad.id, type: 'pause' }], key: 'pause-1' });
    expect(again).toMatchObject({ outcome: 'applied', actionId: result?.actionId });
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(before + 1);

    const [row] = await app().inspect((db) =>
      db
        .select()
        .from(ruleActions)
        .where(eq(ruleActions.id, result?.actionId ?? '')),
    );
    expect(row).toMatchObject({
      ruleId: null,
      runId: null,
      actorType: 'person',
      actorId: session.user.id,
      actorName: session.user.name,
      state: 'applied',
    });
    const applied = (await logs(session)).find((entry) => entry.code === 'manual_action_applied');
    expect(applied?.actor).toMatchObject({ id: session.user.id, name: session.user.name });

    const revert = await app().app.inject({
      method: 'POST',
      url: `/api/rules/actions/${result?.actionId}/revert`,
      headers: session.auth,
    });
    expect(revert.statusCode, revert.body).toBe(200);
    expect(revert.json().data.action).toMatchObject({
      status: 'reverted',
      ruleId: null,
      actor: { type: 'person', id: session.user.id, name: session.user.name },
    });
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(before + 2);
    const [detail] = await entities(session, account, 'ad').then((rows) => rows.filter((r) => r.id === ad.id));
    expect(detail?.status).toBe('ACTIVE');
    const reverted = (await logs(session)).find((entry) => entry.code === 'manual_action_reverted');
    expect(reverted?.actor).toMatchObject({ id: session.user.id });
    const page = await app().app.inject({ method: 'GET', url: `/api/entities/${ad.id}`, headers: session.auth });
    expect(page.json().data.history).toContainEqual(
      expect.objectContaining({
        kind: 'manual_action',
        actionId: result?.actionId,
        status: 'reverted',
        actor: { type: 'person', id: session.user.id, name: session.user.name },
      }),
    );
  });

  it('pausing an ad set by hand gives it and its ads the effective status Meta derives, before the next sync', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const ads = await entities(session, account, 'ad');
    const adSet = (await entities(session, account, 'adset')).find(
      (row) =>
        row.effectiveStatus === 'ACTIVE' &&
        ads.some((ad) => ad.parents.adSet?.id === row.id && ad.effectiveStatus === 'ACTIVE'),
    );
    if (!adSet) throw new Error('no delivering ad set with a delivering ad');
    const effective = async () => {
      const [set] = (await entities(session, account, 'adset')).filter((row) => row.id === adSet.id);
      const under = (await entities(session, account, 'ad')).filter((row) => row.parents.adSet?.id === adSet.id);
      return { adSet: set?.effectiveStatus, ads: under.map((row) => [row.id, row.effectiveStatus] as const) };
    };
    const delivering = await effective();

    const [paused] = await acted(session, { items: [{ entityId: adSet.id, type: 'pause' }] });
    expect(paused?.outcome).toBe('applied');
    const afterPause = await effective();
    expect(afterPause.adSet).toBe('PAUSED');
    // Its ads that delivered now wait on their ad set; an ad paused on its own stays PAUSED.
    for (const [id, status] of delivering.ads)
      expect(afterPause.ads).toContainEqual([id, status === 'ACTIVE' ? 'ADSET_PAUSED' : status]);
    // What Meta answers at the next sync is what the mirror already showed.
    await app().modules.adAccounts.sync.sync(session.scope, account.id, { final: true });
    expect(await effective()).toEqual(afterPause);

    const [resumed] = await acted(session, { items: [{ entityId: adSet.id, type: 'resume' }] });
    expect(resumed?.outcome).toBe('applied');
    expect(await effective()).toEqual(delivering);
    await app().modules.adAccounts.sync.sync(session.scope, account.id, { final: true });
    expect(await effective()).toEqual(delivering);
  });

  it('changes 12 ad sets’ budgets at most four times an hour each, then again after the hour', async () => {
    const { session, accounts } = await connectedUser(app());
    const adSets = await ownBudgetAdSets(session, accounts, 12);
    const items = adSets.map((row) => ({ entityId: row.id, type: 'increase_budget', percent: 10 }));
    for (let round = 1; round <= 4; round += 1) {
      const results = await acted(session, { items });
      expect(results.map((result) => result.outcome)).toEqual(adSets.map(() => 'applied'));
      app().clock.advance(60_000);
    }
    const fifth = await acted(session, { items });
    expect(fifth.map((result) => result.code)).toEqual(adSets.map(() => 'BUDGET_CHANGE_LIMIT'));
    for (const row of adSets) expect(budgetWrites(row.externalId)).toHaveLength(4);

    const next = await acted(await later(session, HOUR), { items: items.slice(0, 1) });
    expect(next[0]?.outcome).toBe('applied');
    expect(budgetWrites(adSets[0]?.externalId ?? '')).toHaveLength(5);
    // 49 budget writes through the ledger: 10 s alone on a loaded 2-core machine, twice that beside other suites.
  }, 60_000);

  it('holds the four-an-hour limit under parallel requests', async () => {
    const { session, accounts } = await connectedUser(app());
    const adSets = await ownBudgetAdSets(session, accounts, 12);
    // Raises: a cut must stay 10 % above today's spend, which depends on the hour the suite runs.
    const items = adSets.map((row) => ({ entityId: row.id, type: 'increase_budget', percent: 1 }));
    const answers = await Promise.all(Array.from({ length: 6 }, () => act(session.auth, { items })));
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    const results = answers.flatMap((answer) => answer.json().data as EntityActionResult[]);
    for (const row of adSets) {
      const mine = results.filter((result) => result.entityId === row.id);
      expect(mine.filter((result) => result.outcome === 'applied').length).toBeLessThanOrEqual(4);
      expect(mine.filter((result) => result.code === 'BUDGET_CHANGE_LIMIT').length).toBeGreaterThanOrEqual(2);
      expect(budgetWrites(row.externalId).length).toBeLessThanOrEqual(4);
    }
    expect(results.filter((result) => result.code === 'META_ERROR')).toEqual([]);
  });

  it('refuses a read-only account with its code and writes nothing', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const ad = (await entities(session, account, 'ad')).find((row) => row.status === 'ACTIVE');
    if (!ad) throw new Error('no active ad');
    await app().inspect((db) =>
      db
        .update(adAccounts)
        .set({ missingScopes: ['ads_management'] })
        .where(eq(adAccounts.id, account.id)),
    );
    const before = writesTo(sandbox(), ad.externalId).length;
    const [result] = await acted(session, { items: [{ entityId: ad.id, type: 'pause' }] });
    expect(result).toMatchObject({ outcome: 'refused', code: 'AD_ACCOUNT_READ_ONLY' });
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(before);
  });

  it('proposes instead of writing: a pending proposal in the Inbox with the person who proposed it', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const ad = (await entities(session, account, 'ad')).find((row) => row.status === 'ACTIVE');
    if (!ad) throw new Error('no active ad');
    const before = writesTo(sandbox(), ad.externalId).length;
    const [result] = await acted(session, { items: [{ entityId: ad.id, type: 'pause' }], propose: true });
    expect(result).toMatchObject({ outcome: 'proposed', from: 'ACTIVE', to: 'PAUSED' });
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(before);
    const inbox = await app().app.inject({
      method: 'GET',
      url: '/api/proposals?status=pending',
      headers: session.auth,
    });
    const proposals = inbox.json().data as Proposal[];
    expect(proposals).toEqual([
      expect.objectContaining({
        id: result?.proposalId,
        ruleId: null,
        runId: null,
        actor: { type: 'person', id: session.user.id, name: session.user.name },
        action: 'pause',
      }),
    ]);
    const approved = await app().app.inject({
      method: 'POST',
      url: `/api/proposals/${result?.proposalId}/approve`,
      headers: session.auth,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data.action).toMatchObject({ status: 'applied' });
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(before + 1);
  });

  it('answers 403 to a viewer and 400 in the envelope to bad input', async () => {
    const { session: owner, accounts } = await connectedUser(app());
    const ad = (await entities(owner, thbAccount(accounts), 'ad'))[0];
    if (!ad) throw new Error('no ad');
    const workspaceId = await createWorkspace(app(), owner);
    await putOnPlan(app(), workspaceId, 'business');
    const viewer = await joinAs(app(), owner, workspaceId, 'viewer');
    const refused = await act(
      { ...viewer.auth, 'x-workspace-id': workspaceId },
      {
        items: [{ entityId: ad.id, type: 'pause' }],
      },
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, code: 'FORBIDDEN' });

    for (const payload of [
      { items: [] },
      { items: [{ entityId: ad.id, type: 'explode' }] },
      { items: [{ entityId: ad.id, type: 'set_budget' }] },
      { items: [{ entityId: ad.id, type: 'pause', amount: 5 }] },
      { items: [{ entityId: 'not-a-uuid', type: 'pause' }] },
      { items: [{ entityId: ad.id, type: 'increase_budget', percent: -3 }] },
      { items: [{ entityId: ad.id, type: 'pause' }], dryRun: true, propose: true },
      { items: [{ entityId: ad.id, type: 'pause' }], key: '' },
    ]) {
      const response = await act(owner.auth, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    }
    const missing = await acted(owner, {
      items: [{ entityId: '00000000-0000-4000-8000-000000000000', type: 'pause' }],
    });
    expect(missing[0]).toMatchObject({ outcome: 'refused', code: 'ENTITY_NOT_FOUND' });
  });
});
