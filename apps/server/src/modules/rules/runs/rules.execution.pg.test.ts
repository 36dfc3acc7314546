import { PLAN_TABLE } from '@adpilot/contracts';
import { activityLogs, adAccounts } from '@adpilot/db';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildRule, buildScaleRule, buildStopLossRule } from '../../../test/rule-factories.ts';
import {
  adTotals,
  connectedUser,
  rulesSandboxApp,
  thbAccount,
  ledgerOf,
  mirrorEntities,
  writesTo,
} from '../../../test/rules-sandbox.ts';

const { app, sandbox, held, rules, createRule, drain, runNow } = rulesSandboxApp();

describe('rules on the sandbox', () => {
  it('a stop-loss rule pauses exactly the active ads whose CPA is over the threshold', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const totals = await adTotals(app(), account, 7);
    const ads = await mirrorEntities(app(), account, 'ad');
    const cpas = ads
      .filter((ad) => ad.status === 'ACTIVE')
      .map((ad) => ({ id: ad.externalId, total: totals.get(ad.externalId) }))
      .filter((ad) => ad.total && ad.total.conversions > 0)
      .map((ad) => ({ id: ad.id, cpa: (ad.total?.spend ?? 0) / (ad.total?.conversions ?? 1) }))
      .sort((a, b) => a.cpa - b.cpa);
    // A threshold in the middle, so some ads are over it and some are not.
    const threshold = cpas[Math.floor(cpas.length / 2)]?.cpa ?? 0;
    const expected = new Set(cpas.filter((ad) => ad.cpa > threshold).map((ad) => ad.id));
    expect(expected.size).toBeGreaterThan(0);
    expect(expected.size).toBeLessThan(ads.length);

    const rule = await createRule(session, buildStopLossRule(account.id, threshold));
    sandbox().sandbox.stats.reset();
    const runId = await runNow(session, rule.id);

    const paused = new Set(
      sandbox()
        .sandbox.mutations.filter((m) => m.status === 'PAUSED')
        .map((m) => m.objectId),
    );
    expect(paused).toEqual(expected);
    expect(sandbox().sandbox.mutations).toHaveLength(expected.size);
    // Writes went out batched: one batch of reads and one of writes per 50 changes, never one request per ad.
    expect(sandbox().sandbox.stats.snapshot().total).toBeLessThanOrEqual(2 * Math.ceil(expected.size / 50));

    const runs = (await rules(session, 'GET', `/${rule.id}/runs`)).json().data;
    expect(runs[0]).toMatchObject({ id: runId, status: 'completed', trigger: 'manual' });
    expect(runs[0].actions).toHaveLength(expected.size);
    for (const action of runs[0].actions) {
      expect(action).toMatchObject({
        type: 'pause',
        status: 'applied',
        change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' },
      });
      expect(action.explanation.decision).toBe('matched');
    }
    const rule2 = (await rules(session, 'GET', `/${rule.id}`)).json().data;
    expect(rule2.lastTriggered).not.toBeNull();

    const log = await app().inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, session.workspaceId), eq(activityLogs.category, 'rule_action'))),
    );
    expect(log).toHaveLength(expected.size);
    expect(log[0]?.metadata).toMatchObject({ code: 'rule_action_applied', ruleId: rule.id, action: 'pause' });
  });

  it('a scale rule raises budgets by the set percent and stops at the ceiling', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const adsets = (await mirrorEntities(app(), account, 'adset')).filter(
      (adset) => adset.status === 'ACTIVE' && adset.dailyBudget !== null,
    );
    const budgets = adsets.map((adset) => adset.dailyBudget ?? 0).sort((a, b) => a - b);
    const ceilingMinor = budgets[Math.floor(budgets.length / 2)] ?? 0;
    const ceiling = ceilingMinor / 100;
    const rule = await createRule(session, {
      ...buildScaleRule({ by: 20, ceiling, adAccountIds: [account.id] }),
      safeguards: { cooldownHours: 0, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
    });
    await runNow(session, rule.id);
    const first = await ledgerOf(app(), rule.id);
    const raised = first.filter((row) => row.state === 'applied' && row.targetLevel === 'adset');
    expect(raised.length).toBeGreaterThan(0);
    for (const row of raised) {
      expect(row.afterMinor).toBe(Math.min(ceilingMinor, Math.round((row.beforeMinor ?? 0) * 1.2)));
      expect(writesTo(sandbox(), row.targetExternalId).at(-1)?.dailyBudget).toBe(row.afterMinor);
    }
    // Ad sets at or above the ceiling were left alone.
    for (const adset of adsets.filter((a) => (a.dailyBudget ?? 0) >= ceilingMinor)) {
      expect(writesTo(sandbox(), adset.externalId)).toHaveLength(0);
    }

    // Three more runs (four budget changes an hour is Meta's limit): each raise is 20% of the last, capped.
    for (let i = 0; i < 3; i++) await runNow(session, rule.id);
    let reachedCeiling = 0;
    for (const adset of adsets) {
      const writes = writesTo(sandbox(), adset.externalId).map((mutation) => mutation.dailyBudget);
      let previous = adset.dailyBudget ?? 0;
      for (const written of writes) {
        expect(written).toBe(Math.min(ceilingMinor, Math.round(previous * 1.2)));
        previous = written ?? 0;
      }
      if (previous === ceilingMinor && writes.length > 0) reachedCeiling += 1;
      else if (writes.length > 0) expect(writes).toHaveLength(4);
    }
    expect(reachedCeiling).toBeGreaterThan(0);
    const runs = (await rules(session, 'GET', `/${rule.id}/runs`)).json().data;
    expect(runs).toHaveLength(4);
  });

  it("never plans a daily budget under the account's minimum: skipped in preview and run, nothing sent to Meta", async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    // The sync keeps Meta's min_daily_budget (minor units) on the account.
    expect(account.minDailyBudget).toBeGreaterThan(0);
    const minimum = account.minDailyBudget ?? 0;
    const body = buildRule({
      scope: { adAccountIds: [account.id], level: 'adset', statuses: ['ACTIVE'] },
      conditions: { match: 'all', items: [{ metric: 'spend', operator: 'gte', value: 0, window: 'last_7d' }] },
      actions: [{ type: 'set_budget', amount: minimum / 2 / 100 }],
      safeguards: { cooldownHours: 0, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
    });
    type Outcome = { outcome: string; skip: { code: string } | null; change: { field: string } | null };
    const preview = (await rules(session, 'POST', '/preview', body)).json().data;
    const outcomes: Outcome[] = preview.entities.flatMap((entity: { actions: Outcome[] }) => entity.actions);
    const daily = outcomes.filter((action) => action.skip?.code === 'below_account_minimum');
    expect(daily.length).toBeGreaterThan(0);
    // (Lifetime budgets are bounded by what was spent and the days left, which the engine does not judge.)
    expect(outcomes.filter((action) => action.change?.field === 'daily_budget')).toEqual([]);

    const rule = await createRule(session, body);
    await runNow(session, rule.id);
    expect(sandbox().sandbox.mutations.filter((mutation) => mutation.dailyBudget !== undefined)).toEqual([]);
  });

  it('the same slot run twice, or by two jobs at once, applies each change once', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const rule = await createRule(session, {
      ...buildScaleRule({ by: 10, ceiling: 100_000, adAccountIds: [account.id] }),
      isActive: true,
    });
    const request = { workspaceId: session.workspaceId, ruleId: rule.id, slot: 'm15:1', trigger: 'schedule' as const };
    const runner = app().modules.rules.runner;
    await Promise.all([runner.run(request), runner.run(request)]);
    const afterParallel = sandbox().sandbox.mutations.length;
    expect(afterParallel).toBeGreaterThan(0);
    await runner.run(request);
    await drain();
    expect(sandbox().sandbox.mutations).toHaveLength(afterParallel);
    const ledger = await ledgerOf(app(), rule.id);
    expect(ledger).toHaveLength(afterParallel);
    expect(ledger.every((row) => row.state === 'applied')).toBe(true);
    for (const row of ledger) expect(writesTo(sandbox(), row.targetExternalId)).toHaveLength(1);
  });

  /** An ad set whose four budget changes of this hour were used in Ads Manager, and a rule that raises it. */
  async function ruleOnExhaustedAdSet() {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const [adset] = (await mirrorEntities(app(), account, 'adset')).filter(
      (row) => row.status === 'ACTIVE' && row.dailyBudget !== null && row.campaignExternalId !== null,
    );
    if (!adset) throw new Error('no ad set with a budget');
    // Someone used the ad set's four budget changes of this hour in Ads Manager: Meta answers 17 to a fifth.
    const before = adset.dailyBudget ?? 0;
    for (const step of [1, 2, 3, 4])
      sandbox().sandbox.recordMutation({
        at: sandbox().sandbox.now(),
        objectId: adset.externalId,
        dailyBudget: before + step,
      });
    const current = before + 4;
    // The mirror learns the new budget when it syncs; the rule then plans +10% of it.
    await app().modules.adAccounts.sync.sync(session.scope, account.id, { final: true });
    const rule = await createRule(session, {
      ...buildScaleRule({ by: 10, ceiling: 1_000_000, adAccountIds: [account.id] }),
      scope: { adAccountIds: [account.id], level: 'adset', nameContains: adset.name },
      // The Ads Manager edits above are changes outside AdPilot: this rule is about Meta's limit, so it acts anyway.
      safeguards: {
        cooldownHours: 0,
        maxActionsPerDay: 1000,
        minSpend: 0,
        minImpressions: 0,
        settleHours: 0,
        respectManualChangesHours: 0,
      },
    });
    await rules(session, 'POST', `/${rule.id}/run`);
    const [first] = held.take();
    if (!first) throw new Error('run not queued');
    const outcome = await app().modules.rules.runner.run(first.request);
    expect(outcome.status).toBe('waiting');
    return { account, adset, rule, first, current };
  }

  it('a Meta rate limit postpones the change, and a later attempt applies it once', async () => {
    const { adset, rule, first, current } = await ruleOnExhaustedAdSet();
    const [row] = (await ledgerOf(app(), rule.id)).filter((r) => r.targetExternalId === adset.externalId);
    expect(row).toMatchObject({ state: 'postponed', error: { code: 'meta_rate_limited' } });
    expect(writesTo(sandbox(), adset.externalId)).toHaveLength(4);

    // The later attempt the run asked for, once Meta's hour has passed.
    const [later] = held.take();
    expect(later?.startAfter?.getTime()).toBeGreaterThan(app().clock.now.getTime());
    app().clock.advance(61 * 60_000);
    if (!later) throw new Error('no later attempt queued');
    await app().modules.rules.runner.run(later.request);
    // A stray copy of the job changes nothing more.
    await app().modules.rules.runner.run(first.request);
    const writes = writesTo(sandbox(), adset.externalId);
    expect(writes).toHaveLength(5);
    expect(writes.at(-1)?.dailyBudget).toBe(Math.round(current * 1.1));
    const [settled] = (await ledgerOf(app(), rule.id)).filter((r) => r.targetExternalId === adset.externalId);
    expect(settled).toMatchObject({ state: 'applied', error: null });
  });

  it('writes nothing to an account connected read-only: each change fails with read_only', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    await app().inspect((db) =>
      db
        .update(adAccounts)
        .set({ missingScopes: ['ads_management'] })
        .where(eq(adAccounts.id, account.id)),
    );
    const rule = await createRule(
      session,
      buildRule({
        scope: { adAccountIds: [account.id], level: 'ad', statuses: ['ACTIVE'] },
        conditions: { match: 'all', items: [{ metric: 'spend', operator: 'gte', value: 0, window: 'last_7d' }] },
        actions: [{ type: 'pause' }],
        safeguards: { cooldownHours: 24, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
      }),
    );
    sandbox().sandbox.stats.reset();
    await runNow(session, rule.id);
    expect(sandbox().sandbox.mutations).toHaveLength(0);
    const ledger = await ledgerOf(app(), rule.id);
    expect(ledger.length).toBeGreaterThan(0);
    for (const row of ledger) expect(row).toMatchObject({ state: 'failed', error: { code: 'read_only' } });
  });

  it('a postponed change fails with reauth_required once the account needs reconnecting, and the run ends', async () => {
    const { account, adset, rule } = await ruleOnExhaustedAdSet();
    const [later] = held.take();
    if (!later) throw new Error('no later attempt queued');
    await app().inspect((db) => db.update(adAccounts).set({ needsReauth: true }).where(eq(adAccounts.id, account.id)));
    app().clock.advance(61 * 60_000);

    const outcome = await app().modules.rules.runner.run(later.request);
    expect(outcome.status).toBe('completed');
    expect(held.take()).toHaveLength(0);
    const [row] = (await ledgerOf(app(), rule.id)).filter((r) => r.targetExternalId === adset.externalId);
    expect(row).toMatchObject({ state: 'failed', error: { code: 'reauth_required' } });
    expect(writesTo(sandbox(), adset.externalId)).toHaveLength(4);
  });

  it('revert restores the previous value, and refuses (409) once someone changed it since', async () => {
    // Early in the THB account's day (Asia/Bangkok, UTC+7): Meta refuses a lowered daily budget under 110 % of
    // today's spend, so late in the day (or after other tests moved the clock on) the revert's write-back would be
    // refused for a reason this test is not about. The clock only moves forward.
    const early = new Date(app().clock.now);
    early.setUTCHours(18, 0, 0, 0); // 01:00 in Bangkok
    if (early <= app().clock.now) early.setUTCDate(early.getUTCDate() + 1);
    app().clock.now = early;
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const rule = await createRule(session, {
      ...buildScaleRule({ by: 10, ceiling: 1_000_000, adAccountIds: [account.id] }),
      safeguards: { cooldownHours: 0, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
    });
    await runNow(session, rule.id);
    const [one, two] = (await ledgerOf(app(), rule.id)).filter((row) => row.state === 'applied');
    if (!one || !two) throw new Error('expected two applied changes');

    const reverted = await rules(session, 'POST', `/actions/${one.id}/revert`);
    expect(reverted.statusCode).toBe(200);
    expect(reverted.json().data.action).toMatchObject({ status: 'reverted', revertible: false });
    expect(writesTo(sandbox(), one.targetExternalId).at(-1)?.dailyBudget).toBe(one.beforeMinor);
    const again = await rules(session, 'POST', `/actions/${one.id}/revert`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('REVERT_ALREADY_REVERTED');

    // Someone changes the second ad set's budget in Ads Manager: the revert must not overwrite it.
    sandbox().sandbox.recordMutation({
      at: sandbox().sandbox.now(),
      objectId: two.targetExternalId,
      dailyBudget: (two.afterMinor ?? 0) + 500,
    });
    const refused = await rules(session, 'POST', `/actions/${two.id}/revert`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ success: false, code: 'REVERT_VALUE_CHANGED' });
    expect(writesTo(sandbox(), two.targetExternalId).at(-1)?.dailyBudget).toBe((two.afterMinor ?? 0) + 500);
  });

  it('preview and then run agree', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const body = buildRule({
      scope: { adAccountIds: [account.id], level: 'ad', statuses: ['ACTIVE'] },
      conditions: { match: 'all', items: [{ metric: 'ctr', operator: 'lt', value: 1.5, window: 'last_7d' }] },
      actions: [{ type: 'pause' }],
      safeguards: { cooldownHours: 24, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
    });
    const unsaved = (await rules(session, 'POST', '/preview', body)).json().data;
    const rule = await createRule(session, body);
    const saved = (await rules(session, 'POST', `/${rule.id}/preview`)).json().data;
    const planned = (preview: { entities: { actions: { outcome: string; target: { externalId: string } }[] }[] }) =>
      preview.entities
        .flatMap((entity) => entity.actions)
        .filter((action) => action.outcome === 'planned')
        .map((action) => action.target.externalId)
        .sort();
    expect(planned(saved)).toEqual(planned(unsaved));
    expect(saved.totals.evaluated).toBeGreaterThan(saved.totals.matched);
    expect(saved.entities.length).toBe(saved.totals.evaluated);

    await runNow(session, rule.id);
    const paused = sandbox()
      .sandbox.mutations.filter((m) => m.status === 'PAUSED')
      .map((m) => m.objectId)
      .sort();
    expect(paused).toEqual(planned(saved));
    expect(paused.length).toBeGreaterThan(0);
  });

  it('backtests the last days on stored history', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const rule = await createRule(session, buildScaleRule({ by: 10, ceiling: 5000, adAccountIds: [account.id] }));
    const response = await rules(session, 'POST', `/${rule.id}/backtest`, { days: 7 });
    expect(response.statusCode).toBe(200);
    const backtest = response.json().data;
    expect(backtest.days).toHaveLength(7);
    expect(backtest.totals.firings).toBe(
      backtest.days.reduce((sum: number, day: { firings: unknown[] }) => sum + day.firings.length, 0),
    );
    expect((await rules(session, 'POST', `/${rule.id}/backtest`, { days: 0 })).statusCode).toBe(400);
    // Without a range: the default 30 days, or the plan's furthest when shorter (ADR 0113; the free plan's 7).
    const free = PLAN_TABLE.find((plan) => plan.id === 'free')?.limits.backtestDays ?? 0;
    expect((await rules(session, 'POST', `/${rule.id}/backtest`)).json().data.days).toHaveLength(Math.min(30, free));
  });
});
