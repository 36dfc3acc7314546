import { activityLogs, type AdAccountRow } from '@adpilot/db';
import { MetaClient } from '@adpilot/meta';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildRule } from '../../../test/rule-factories.ts';
import { connectedUser, ledgerOf, mirrorEntities, rulesSandboxApp } from '../../../test/rules-sandbox.ts';

/**
 * Budget boosts (ADR 0191) on the sandbox: one New York account whose first campaign holds its budget (campaign
 * budget, so its ad set has none) and whose second campaign's ad set holds its own. The clock stands at 10:00 in
 * New York, so the boost's 18:00–22:00 window is ahead today whatever the hour the test runs at.
 */
const { app, sandbox, createRule, rules, held } = rulesSandboxApp({
  seed: {
    seed: 'budget-boosts',
    personas: [
      {
        name: 'Boost Owner',
        accounts: [
          {
            name: 'Boost Store',
            currency: 'USD',
            timezone: 'America/New_York',
            campaigns: 2,
            adSetsPerCampaign: 1,
            adsPerAdSet: 1,
            cboCampaigns: 1,
          },
        ],
      },
    ],
  },
});

const WINDOW = { timeStart: '2026-12-03T23:00:00.000Z', timeEnd: '2026-12-04T03:00:00.000Z' };

function boostRule(account: AdAccountRow) {
  return buildRule({
    isActive: true,
    scope: { adAccountIds: [account.id], level: 'adset' },
    conditions: {
      match: 'all',
      items: [{ metric: 'hours_since_creation', operator: 'gte', value: 0, window: 'today' }],
    },
    actions: [{ type: 'boost_budget', by: 50, unit: 'percent', from: '18:00', to: '22:00' }],
    safeguards: { cooldownHours: 0, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
  });
}

/** The ad set's budget schedules as Meta (the sandbox) lists them, read with the account's own token. */
function metaClient() {
  return new MetaClient({
    graphBaseUrl: sandbox().url,
    appId: sandbox().sandbox.appId,
    appSecret: sandbox().sandbox.appSecret,
  });
}

async function schedulesOf(account: AdAccountRow, adSetId: string) {
  return metaClient().listBudgetSchedules(app().secretBox.decrypt(account.accessTokenEnc), adSetId);
}

async function setUp() {
  app().clock.now = new Date('2026-12-03T15:00:00.000Z'); // Thursday 10:00 in New York (EST)
  const { session, accounts } = await connectedUser(app());
  const account = accounts.find((row) => row.timezone === 'America/New_York');
  if (!account) throw new Error('no New York account');
  const adSets = await mirrorEntities(app(), account, 'adset');
  const own = adSets.find((row) => row.dailyBudget !== null || row.lifetimeBudget !== null);
  const underCampaignBudget = adSets.find((row) => row.dailyBudget === null && row.lifetimeBudget === null);
  if (!own || !underCampaignBudget) throw new Error('the seed has no ad set of each kind');
  const rule = await createRule(session, boostRule(account));
  return { session, account, own, underCampaignBudget, rule };
}

describe('budget boosts through the ledger', () => {
  it('creates the schedule exactly once for two parallel runs of a slot, and skips a CBO ad set with its code', async () => {
    const { session, account, own, underCampaignBudget, rule } = await setUp();
    const asked = await rules(session, 'POST', `/${rule.id}/run`);
    expect(asked.statusCode).toBe(202);
    const [request] = held.take();
    if (!request) throw new Error('no run queued');
    // Two workers handed the same slot at once.
    await Promise.all([
      app().modules.rules.runner.run(request.request),
      app().modules.rules.runner.run(request.request),
    ]);

    const listed = await schedulesOf(account, own.externalId);
    expect(listed).toHaveLength(1);
    const budget = Number(own.dailyBudget ?? own.lifetimeBudget);
    expect(listed[0]).toMatchObject({
      budgetValue: 50,
      budgetValueType: 'MULTIPLIER',
      timeStart: new Date(WINDOW.timeStart),
      timeEnd: new Date(WINDOW.timeEnd),
    });

    const ledger = (await ledgerOf(app(), rule.id)).filter((row) => row.actionType === 'boost_budget');
    expect(ledger).toHaveLength(1);
    const [row] = ledger;
    expect(row).toMatchObject({
      state: 'applied',
      targetExternalId: own.externalId,
      field: 'budget_schedule',
      beforeMinor: budget,
      afterMinor: Math.round(budget * 1.5),
      budgetSchedule: { ...WINDOW, budgetValue: 50, budgetValueType: 'MULTIPLIER', scheduleId: listed[0]!.id },
    });

    // The run's history: the boost with from → to and its window, the CBO ad set skipped with the code.
    const run = (await rules(session, 'GET', `/${rule.id}/runs`)).json().data[0];
    expect(run.actions).toHaveLength(1);
    expect(run.actions[0].change).toMatchObject({
      field: 'budget_schedule',
      fromMinor: budget,
      toMinor: Math.round(budget * 1.5),
      ...WINDOW,
    });
    expect(run.skipped).toEqual([
      expect.objectContaining({
        entity: expect.objectContaining({ externalId: underCampaignBudget.externalId }),
        type: 'boost_budget',
        skip: { code: 'boost_no_own_budget', params: { level: 'adset', holderLevel: 'campaign' } },
      }),
    ]);
    expect(await schedulesOf(account, underCampaignBudget.externalId)).toEqual([]);
  });

  it('reverts by deleting the schedule on Meta, says so in Activity, and refuses a second revert', async () => {
    const { session, account, own, rule } = await setUp();
    const asked = await rules(session, 'POST', `/${rule.id}/run`);
    expect(asked.statusCode).toBe(202);
    for (const { request } of held.take()) await app().modules.rules.runner.run(request);
    const [row] = (await ledgerOf(app(), rule.id)).filter((item) => item.actionType === 'boost_budget');
    if (!row) throw new Error('no boost planned');
    expect(await schedulesOf(account, own.externalId)).toHaveLength(1);

    const reverted = await rules(session, 'POST', `/actions/${row.id}/revert`);
    expect(reverted.statusCode).toBe(200);
    expect(reverted.json().data.action).toMatchObject({ status: 'reverted', type: 'boost_budget' });
    expect(await schedulesOf(account, own.externalId)).toEqual([]);

    const entries = await app().inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, session.workspaceId), eq(activityLogs.category, 'rule_action'))),
    );
    const entry = entries.find((item) => (item.metadata as { code?: string }).code === 'rule_action_reverted');
    expect(entry?.metadata).toMatchObject({
      action: 'boost_budget',
      change: { field: 'budget_schedule', scheduleId: row.budgetSchedule?.scheduleId, ...WINDOW },
    });
    expect(entry?.description).toContain('Reverted');

    const again = await rules(session, 'POST', `/actions/${row.id}/revert`);
    expect(again.statusCode).toBe(409);
  });

  it('takes a schedule that landed before a crash as applied, without creating a second one', async () => {
    const { session, account, own, rule } = await setUp();
    // The create of an earlier attempt reached Meta, and its worker died before the ledger heard of it.
    const landed = await metaClient().createBudgetSchedule(
      app().secretBox.decrypt(account.accessTokenEnc),
      own.externalId,
      {
        budgetValue: 50,
        budgetValueType: 'MULTIPLIER',
        timeStart: new Date(WINDOW.timeStart),
        timeEnd: new Date(WINDOW.timeEnd),
      },
    );
    expect((await rules(session, 'POST', `/${rule.id}/run`)).statusCode).toBe(202);
    for (const { request } of held.take()) await app().modules.rules.runner.run(request);

    expect((await schedulesOf(account, own.externalId)).map((item) => item.id)).toEqual([landed]);
    const [row] = (await ledgerOf(app(), rule.id)).filter((item) => item.actionType === 'boost_budget');
    expect(row).toMatchObject({ state: 'applied', budgetSchedule: { scheduleId: landed } });
  });
});
