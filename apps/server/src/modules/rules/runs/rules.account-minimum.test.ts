import { adAccounts, type AdAccountRow } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildRule } from '../../../test/rule-factories.ts';
import {
  connectedUser,
  rulesSandboxApp,
  ledgerOf,
  mirrorEntities,
  writesTo,
  type Session,
} from '../../../test/rules-sandbox.ts';

/**
 * Budget rules on the sandbox's JPY account, whose minimum daily budget is ¥150: a rule never plans a daily budget
 * under Meta's `min_daily_budget`, so preview and run agree and Meta never answers 100/1885272 (ADR 0055).
 */

const { app, sandbox, held, rules, createRule, drain } = rulesSandboxApp();

/** One minute after the next midnight in Tokyo (UTC+9, no summer time): today's spend is still close to nothing. */
function justAfterTokyoMidnight(from: Date): Date {
  const next = new Date(from);
  next.setUTCHours(15, 1, 0, 0);
  if (next <= from) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

beforeEach(() => {
  // Lowering a budget must also stay 10% above today's spend on Meta; just after midnight that rule stays out of
  // the way, so only the minimum decides.
  app().clock.now = justAfterTokyoMidnight(app().clock.now);
});

async function tokyo(): Promise<{ session: Session; account: AdAccountRow }> {
  const persona = sandbox().sandbox.personas.find((candidate) =>
    candidate.accountIds.some((id) => sandbox().sandbox.world.account(id)?.currency === 'JPY'),
  );
  const { session, accounts } = await connectedUser(app(), persona?.id);
  const account = accounts.find((row) => row.currency === 'JPY');
  if (!account) throw new Error('no JPY account');
  return { session, account };
}

/** A budget rule on every active ad set of the account that holds its own daily budget (spend ≥ 0 always holds). */
function budgetRule(account: AdAccountRow, action: object) {
  return buildRule({
    scope: { adAccountIds: [account.id], level: 'adset', statuses: ['ACTIVE'] },
    conditions: { match: 'all', items: [{ metric: 'spend', operator: 'gte', value: 0, window: 'last_7d' }] },
    actions: [action as never],
    safeguards: { cooldownHours: 0, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
  });
}

interface PreviewAction {
  outcome: string;
  target: { externalId: string; level: string };
  change: { field: string; from: number; to: number; fromMinor: number; toMinor: number } | null;
  skip: { code: string; params: Record<string, unknown> } | null;
}
const actionsOf = (preview: { entities: { actions: PreviewAction[] }[] }) =>
  preview.entities.flatMap((entity) => entity.actions);

describe("budget rules respect the account's minimum daily budget (JPY account, ¥150)", () => {
  it('stores the minimum the sandbox serves and refuses under', async () => {
    const { account } = await tokyo();
    expect(account.minDailyBudget).toBe(150);
    expect(sandbox().sandbox.world.account(account.facebookAccountId)?.minDailyBudget).toBe(account.minDailyBudget);
  });

  it('a 99% decrease previews clamped to ¥150 and the run applies exactly that, with no refusal from Meta', async () => {
    const { session, account } = await tokyo();
    const rule = await createRule(session, budgetRule(account, { type: 'decrease_budget', by: 99, unit: 'percent' }));
    const preview = (await rules(session, 'POST', `/${rule.id}/preview`)).json().data;
    const planned = actionsOf(preview).filter((action) => action.outcome === 'planned');
    expect(planned.length).toBeGreaterThan(0);
    // 1% of each budget, never under ¥150: the daily budgets all land on the minimum.
    for (const action of planned) {
      const fromMinor = action.change!.fromMinor;
      expect(action.change!.toMinor).toBe(Math.max(150, Math.round(fromMinor * 0.01)));
    }
    const daily = planned.filter((action) => action.change?.field === 'daily_budget');
    expect(daily.length).toBeGreaterThan(0);
    for (const action of daily) expect(action.change).toMatchObject({ to: 150, toMinor: 150 });

    sandbox().sandbox.stats.reset();
    await rules(session, 'POST', `/${rule.id}/run`);
    await drain();
    const ledger = await ledgerOf(app(), rule.id);
    expect(ledger.filter((row) => row.state === 'failed')).toEqual([]);
    const applied = ledger.filter((row) => row.state === 'applied');
    expect(applied.map((row) => row.targetExternalId).sort()).toEqual(
      planned.map((action) => action.target.externalId).sort(),
    );
    for (const row of applied) {
      const written = writesTo(sandbox(), row.targetExternalId).at(-1);
      expect(row.field === 'daily_budget' ? written?.dailyBudget : written?.lifetimeBudget).toBe(row.afterMinor);
    }

    // Again: every daily budget is at the minimum now, so the preview skips them and nothing is planned for them.
    const again = actionsOf((await rules(session, 'POST', `/${rule.id}/preview`)).json().data);
    const dailyIds = new Set(daily.map((action) => action.target.externalId));
    const atMinimum = again.filter((action) => dailyIds.has(action.target.externalId));
    // (An ad set under a campaign budget points at its campaign: one campaign can be the target of several.)
    expect(new Set(atMinimum.map((action) => action.target.externalId))).toEqual(dailyIds);
    for (const action of atMinimum)
      expect(action).toMatchObject({
        outcome: 'skipped',
        skip: { code: 'at_account_minimum', params: { minimum: 150, current: 150 } },
      });
  });

  it('set_budget 50 previews as skipped (below_account_minimum) and the run sends Meta nothing', async () => {
    const { session, account } = await tokyo();
    const rule = await createRule(session, budgetRule(account, { type: 'set_budget', amount: 50 }));
    const actions = actionsOf((await rules(session, 'POST', `/${rule.id}/preview`)).json().data);
    const budgets = actions.filter(
      (action) => action.skip?.code !== 'budget_holder_planned' && action.skip?.code !== 'no_budget_holder',
    );
    expect(budgets.length).toBeGreaterThan(0);
    for (const action of budgets)
      expect(action).toMatchObject({
        outcome: 'skipped',
        change: null,
        skip: { code: 'below_account_minimum', params: { amount: 50, minimum: 150 } },
      });

    const before = sandbox().sandbox.mutations.length;
    await rules(session, 'POST', `/${rule.id}/run`);
    await drain();
    expect(sandbox().sandbox.mutations.length).toBe(before);
    expect(await ledgerOf(app(), rule.id)).toEqual([]);
    const runs = (await rules(session, 'GET', `/${rule.id}/runs`)).json().data;
    expect(runs[0]).toMatchObject({ status: 'completed', actions: [] });
    // The run says why nothing was applied: the same skips as the preview, per entity, by code.
    const skipped = runs[0].skipped.filter(
      (item: { skip: { code: string } }) => item.skip.code === 'below_account_minimum',
    );
    expect(skipped).toHaveLength(budgets.length);
    expect(skipped[0]).toMatchObject({
      type: 'set_budget',
      entity: { adAccountId: account.id },
      skip: { params: { amount: 50, minimum: 150 } },
    });
  });

  it('set_budget at the minimum is planned and applied', async () => {
    const { session, account } = await tokyo();
    const rule = await createRule(session, budgetRule(account, { type: 'set_budget', amount: 150 }));
    await rules(session, 'POST', `/${rule.id}/run`);
    await drain();
    const ledger = await ledgerOf(app(), rule.id);
    expect(ledger.length).toBeGreaterThan(0);
    expect(ledger.every((row) => row.state === 'applied' && row.afterMinor === 150)).toBe(true);
  });

  it('a change planned while the minimum was unknown is never sent once it is known: it fails with below_account_minimum', async () => {
    const { session, account } = await tokyo();
    const [adset] = (await mirrorEntities(app(), account, 'adset')).filter(
      (row) => row.status === 'ACTIVE' && row.dailyBudget !== null,
    );
    if (!adset) throw new Error('no ad set with a daily budget');
    // An account stored before the minimum was read: the engine plans ¥100.
    await app().inspect((db) =>
      db.update(adAccounts).set({ minDailyBudget: null }).where(eq(adAccounts.id, account.id)),
    );
    const rule = await createRule(session, {
      ...budgetRule(account, { type: 'set_budget', amount: 100 }),
      scope: { adAccountIds: [account.id], level: 'adset', nameContains: adset.name },
    });
    await rules(session, 'POST', `/${rule.id}/run`);
    const [first] = held.take();
    if (!first) throw new Error('run not queued');
    // Meta's rate limit postpones the write, so the row waits for a later attempt.
    sandbox().sandbox.faults.set({ rateLimit: { count: 100 } });
    try {
      await app().modules.rules.runner.run(first.request);
    } finally {
      sandbox().sandbox.faults.clear();
    }
    const [postponed] = (await ledgerOf(app(), rule.id)).filter((row) => row.targetExternalId === adset.externalId);
    expect(postponed).toMatchObject({ state: 'postponed', afterMinor: 100 });

    // The next sync learns the minimum; the later attempt refuses the row instead of sending it.
    await app().modules.adAccounts.sync.sync(session.scope, account.id, { final: true });
    app().clock.advance(61 * 60_000);
    await drain();
    const [settled] = (await ledgerOf(app(), rule.id)).filter((row) => row.targetExternalId === adset.externalId);
    expect(settled).toMatchObject({
      state: 'failed',
      error: { code: 'below_account_minimum', params: { amount: 100, minimum: 150, currency: 'JPY' } },
    });
    expect(writesTo(sandbox(), adset.externalId)).toEqual([]);
  });
});
