import { activityLogs, automationRules, type AdAccountRow } from '@adpilot/db';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildScaleRule } from '../../../test/rule-factories.ts';
import {
  connectedUser,
  editInAdsManager,
  ledgerOf,
  mirrorEntities,
  rulesSandboxApp,
  writesTo,
  type Session,
} from '../../../test/rules-sandbox.ts';
import { signInAgain } from '../../../test/workspace-fixtures.ts';

const { app, sandbox, rules, createRule, runNow, latestRun } = rulesSandboxApp();
const HOUR = 3_600_000;

const sync = (session: Session, account: AdAccountRow) =>
  app().modules.adAccounts.sync.sync(session.scope, account.id, { final: true });

/** A colleague sets the ad set's daily budget (minor units) on Ads Manager; a minute later a sync finds it. */
async function budgetSetInAdsManager(
  session: Session,
  account: AdAccountRow,
  adset: { externalId: string },
  minor: number,
): Promise<void> {
  await editInAdsManager(sandbox(), session, {
    act: account.facebookAccountId,
    id: adset.externalId,
    status: 'ACTIVE',
    dailyBudget: (minor / 100).toFixed(2),
  });
  app().clock.advance(60_000);
  await sync(session, account);
}

const externalEntries = (session: Session) =>
  app().inspect((db) =>
    db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.workspaceId, session.workspaceId), eq(activityLogs.category, 'sync'))),
  );

/** The THB account and one of its active ad sets that holds its own daily budget. */
async function adSetWithBudget() {
  const { session, accounts } = await connectedUser(app());
  const account = accounts.find((row) => row.currency === 'THB');
  if (!account) throw new Error('no THB account');
  const adsets = await mirrorEntities(app(), account, 'adset');
  const adset = adsets.find(
    (row) =>
      row.status === 'ACTIVE' &&
      row.dailyBudget !== null &&
      !sandbox().sandbox.world.campaignOf(sandbox().sandbox.world.adSets.get(row.externalId)!).isCbo,
  );
  if (!adset) throw new Error('no ad set with its own budget');
  return { session, account, adset };
}

/** A scale rule on exactly that ad set, with the safeguard at `hours` (default: the rule format's 24). */
function scaleRule(account: AdAccountRow, name: string, hours?: number) {
  return {
    ...buildScaleRule({ by: 10, ceiling: 1_000_000, adAccountIds: [account.id] }),
    scope: { adAccountIds: [account.id], level: 'adset' as const, nameContains: name },
    safeguards: {
      cooldownHours: 0,
      maxActionsPerDay: 1000,
      minSpend: 0,
      minImpressions: 0,
      settleHours: 0,
      ...(hours !== undefined ? { respectManualChangesHours: hours } : {}),
    },
  };
}

describe('changes made outside AdPilot', () => {
  it("a budget changed on Ads Manager is logged with the link holder's name, and rules leave the ad set alone for the set hours", async () => {
    const { session, account, adset } = await adSetWithBudget();
    const rule = await createRule(session, scaleRule(account, adset.name));
    const before = adset.dailyBudget ?? 0;
    const after = before + 5_000;

    app().clock.advance(60_000);
    await budgetSetInAdsManager(session, account, adset, after);

    const [entry] = (await externalEntries(session)).filter((row) => row.metadata.code === 'external_change');
    expect(entry).toMatchObject({
      level: 'warning',
      adAccountId: account.id,
      actorUserId: null,
      metadata: {
        code: 'external_change',
        entityExternalId: adset.externalId,
        params: {
          target: adset.name,
          change: 'daily_budget',
          // Budgets in major units with their currency: each reader writes them in their own language.
          from: before / 100,
          to: after / 100,
          currency: 'THB',
          actor: session.user.name,
          app: 'Ads Manager',
        },
      },
    });
    expect(entry?.description).toContain(`changed outside AdPilot by ${session.user.name} (Ads Manager)`);
    const amount = (minor: number) => `THB\u00a0${(minor / 100).toLocaleString('en', { minimumFractionDigits: 2 })}`;
    expect(entry?.description).toContain(`${amount(before)} → ${amount(after)}`);
    const [marked] = (await mirrorEntities(app(), account, 'adset')).filter((row) => row.id === adset.id);
    expect(marked).toMatchObject({ dailyBudget: after, externalChangeBy: session.user.name });

    // Within the 24 hours the rule leaves it alone, saying why; nothing is sent to Meta.
    const writes = writesTo(sandbox(), adset.externalId).length;
    await runNow(session, rule.id);
    const run = await latestRun(session, rule.id);
    const onIt = (items: { entity?: { externalId: string }; target?: { externalId: string } }[]) =>
      items.filter((item) => (item.entity ?? item.target)?.externalId === adset.externalId);
    expect(onIt(run.actions)).toEqual([]);
    expect(onIt(run.skipped)).toEqual([
      expect.objectContaining({
        skip: {
          code: 'external_change',
          params: expect.objectContaining({ hours: 24, by: session.user.name }),
        },
      }),
    ]);
    expect(writesTo(sandbox(), adset.externalId)).toHaveLength(writes);

    // Once the hours are over it acts again: +10% of what the person set.
    app().clock.advance(24 * HOUR);
    await runNow(await signInAgain(app(), session), rule.id);
    const applied = (await ledgerOf(app(), rule.id)).filter(
      (row) => row.state === 'applied' && row.targetExternalId === adset.externalId,
    );
    expect(applied).toEqual([expect.objectContaining({ beforeMinor: after, afterMinor: Math.round(after * 1.1) })]);

    // Its own write is never an external change, however often the account syncs.
    app().clock.advance(HOUR);
    await sync(session, account);
    const external = (await externalEntries(session)).filter((row) => row.metadata.code === 'external_change');
    expect(external).toHaveLength(1);
  });

  it('a change through the Graph API that the ledger does not hold is logged as outside AdPilot', async () => {
    const { session, account, adset } = await adSetWithBudget();
    const client = app().ctx.meta.client();
    const token = sandbox().sandbox.issueToken(sandbox().sandbox.personas[0]?.id);
    app().clock.advance(60_000);
    await client.updateStatus(token, adset.externalId, 'PAUSED', { accountId: `act_${account.facebookAccountId}` });
    app().clock.advance(60_000);
    await sync(session, account);
    const [entry] = (await externalEntries(session)).filter((row) => row.metadata.code === 'external_change');
    expect(entry?.metadata.params).toEqual({
      accountName: account.facebookAccountName,
      target: adset.name,
      level: 'adset',
      change: 'status',
      from: 'ACTIVE',
      to: 'PAUSED',
    });
    expect(entry?.description).toBe(`"${adset.name}": status changed outside AdPilot, ACTIVE → PAUSED`);
    const [marked] = (await mirrorEntities(app(), account, 'adset')).filter((row) => row.id === adset.id);
    expect(marked?.externalChangeAt).not.toBeNull();
    expect(marked?.externalChangeBy).toBeNull();
  });

  it('respectManualChangesHours 0 turns it off: the rule acts on the changed ad set at once', async () => {
    const { session, account, adset } = await adSetWithBudget();
    const rule = await createRule(session, scaleRule(account, adset.name, 0));
    const after = (adset.dailyBudget ?? 0) + 5_000;
    await budgetSetInAdsManager(session, account, adset, after);
    await runNow(session, rule.id);
    const applied = (await ledgerOf(app(), rule.id)).filter(
      (row) => row.state === 'applied' && row.targetExternalId === adset.externalId,
    );
    expect(applied).toEqual([expect.objectContaining({ beforeMinor: after })]);
  });

  it('a rule stored before the safeguard existed reads with its default of 24 hours', async () => {
    const { session, account, adset } = await adSetWithBudget();
    const rule = await createRule(session, scaleRule(account, adset.name));
    await app().inspect(async (db) => {
      const [row] = await db.select().from(automationRules).where(eq(automationRules.id, rule.id));
      const definition = row?.definition as { safeguards: Record<string, unknown> };
      delete definition.safeguards.respectManualChangesHours;
      await db.update(automationRules).set({ definition }).where(eq(automationRules.id, rule.id));
    });
    const read = (await rules(session, 'GET', `/${rule.id}`)).json().data;
    expect(read.safeguards.respectManualChangesHours).toBe(24);
  });
});
