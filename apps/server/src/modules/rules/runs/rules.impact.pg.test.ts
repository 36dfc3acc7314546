import { addDays, currencyOffset, localDate, type RuleImpact } from '@adpilot/contracts';
import type { AdAccountRow, RuleActionRow } from '@adpilot/db';
import type { SandboxAd } from '@adpilot/meta-sandbox';
import { describe, expect, it } from 'vitest';
import { buildRule, buildScaleRule, buildStopLossRule } from '../../../test/rule-factories.ts';
import {
  adTotals,
  connectedUser,
  ledgerOf,
  mirrorEntities,
  rulesSandboxApp,
  type Session,
} from '../../../test/rules-sandbox.ts';

const { app, sandbox, rules, createRule, runNow } = rulesSandboxApp();
const DAY_MS = 86_400_000;

/** The ads under an entity of the sandbox world (an ad, an ad set or a campaign). */
function adsUnder(level: string, id: string): SandboxAd[] {
  const world = sandbox().sandbox.world;
  if (level === 'ad') return [world.ads.get(id)!];
  if (level === 'adset') return world.adsOf(world.adSets.get(id)!);
  return world.adSetsOf(world.campaigns.get(id)!).flatMap((adSet) => world.adsOf(adSet));
}

/** The entity's delivery over first…last straight from the sandbox's model (not the mirror), major units. */
function delivered(account: AdAccountRow, level: string, id: string, first: string, last: string) {
  const offset = currencyOffset(account.currency);
  const now = sandbox().sandbox.now();
  const total = { spend: 0, results: 0, value: 0 };
  for (let date = first; date <= last; date = addDays(date, 1)) {
    for (const ad of adsUnder(level, id)) {
      const day = sandbox().sandbox.delivery.adDay(ad, date, now);
      if (!day) continue;
      total.spend += day.spend / offset;
      total.results += day.purchases;
      total.value += day.purchaseValue / offset;
    }
  }
  return {
    ...total,
    cpa: total.results > 0 ? total.spend / total.results : null,
    roas: total.spend > 0 ? total.value / total.spend : null,
  };
}

function expectFigures(
  actual: { spend: number; results: number; cpa: number | null; roas: number | null },
  expected: ReturnType<typeof delivered>,
) {
  expect(actual.spend).toBeCloseTo(expected.spend, 2);
  expect(actual.results).toBeCloseTo(expected.results, 4);
  if (expected.cpa === null) expect(actual.cpa).toBeNull();
  else expect(actual.cpa).toBeCloseTo(expected.cpa, 4);
  if (expected.roas === null) expect(actual.roas).toBeNull();
  else expect(actual.roas).toBeCloseTo(expected.roas, 4);
}

/** Signs in again: days on, the session's access token has expired. */
async function signIn(session: Session): Promise<void> {
  const response = await app().app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: session.user.email, password: session.password },
  });
  expect(response.statusCode).toBe(200);
  session.auth.authorization = `Bearer ${response.json().data.token}`;
}

/** Moves the clock on a day at a time, syncing each day, as the daily sync would. */
async function liveDays(session: Session, account: AdAccountRow, days: number): Promise<void> {
  for (let i = 0; i < days; i++) {
    app().clock.advance(DAY_MS);
    const result = await app().modules.adAccounts.sync.sync(session.scope, account.id, { final: true });
    expect(result.status).toBe('synced');
  }
  await signIn(session);
}

describe('the impact of a rule on the sandbox', () => {
  it("equals the sandbox's own delivery: a stop-loss pause and a scale action, 14 settled days, a revert", async () => {
    // 01:00 in Bangkok (the THB account's zone), so the day's changes are not refused for today's spend.
    const early = new Date(app().clock.now);
    early.setUTCHours(18, 0, 0, 0);
    if (early <= app().clock.now) early.setUTCDate(early.getUTCDate() + 1);
    app().clock.now = early;
    const { session, accounts } = await connectedUser(app());
    const account = accounts.find((row) => row.currency === 'THB')!;

    // Stop loss: the ads whose 7-day CPA is over the median.
    const totals = await adTotals(app(), account, 7);
    const cpas = (await mirrorEntities(app(), account, 'ad'))
      .filter((ad) => ad.status === 'ACTIVE')
      .map((ad) => totals.get(ad.externalId))
      .filter((total) => total && total.conversions > 0)
      .map((total) => total!.spend / total!.conversions)
      .sort((a, b) => a - b);
    const threshold = cpas[Math.floor(cpas.length / 2)] ?? 0;
    const stopLoss = await createRule(session, buildStopLossRule(account.id, threshold));
    const scale = await createRule(session, {
      ...buildScaleRule({ by: 10, ceiling: 1_000_000, adAccountIds: [account.id] }),
      safeguards: { cooldownHours: 24, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
    });
    await runNow(session, stopLoss.id);
    await runNow(session, scale.id);
    const applied = (rows: RuleActionRow[]) => rows.filter((row) => row.state === 'applied');
    const pauses = applied(await ledgerOf(app(), stopLoss.id));
    const raises = applied(await ledgerOf(app(), scale.id));
    expect(pauses.length).toBeGreaterThan(0);
    expect(raises.length).toBeGreaterThan(1);
    const actionDay = localDate(account.timezone, app().clock.now.getTime());
    const range = `from=${addDays(actionDay, -1)}&to=${addDays(actionDay, 1)}`;
    const impactOf = async (ruleId: string): Promise<RuleImpact> => {
      const response = await rules(session, 'GET', `/${ruleId}/impact?${range}`);
      expect(response.statusCode).toBe(200);
      return response.json().data;
    };

    // Nothing after the action has settled yet: every after is null, every before is known.
    const fresh = await impactOf(scale.id);
    expect(fresh.actions).toHaveLength(raises.length);
    for (const action of fresh.actions) {
      expect(action.windows.map((window) => window.after)).toEqual([null, null, null]);
      expect(action.windows[0]!.before.spend).toBeGreaterThanOrEqual(0);
    }

    // Two days on, the first raise is reverted: its after ends the day before.
    await liveDays(session, account, 2);
    const reverted = raises[0]!;
    const revert = await rules(session, 'POST', `/actions/${reverted.id}/revert`);
    expect(revert.statusCode).toBe(200);

    // Fourteen days after the action, plus the days a sync still rewrites: the 3-day after has settled, and
    // the 14-day after only once its last day is older than those.
    await liveDays(session, account, 14 + 14 - 2);
    let impact = await impactOf(scale.id);
    for (const action of impact.actions) {
      expect(action.windows.find((window) => window.days === 3)!.after).not.toBeNull();
      // The reverted raise's after is its one day, long settled.
      const fortnight = action.windows.find((window) => window.days === 14)!.after;
      if (action.actionId === reverted.id) expect(fortnight).not.toBeNull();
      else expect(fortnight).toBeNull();
    }
    await liveDays(session, account, 1);

    for (const rule of [stopLoss, scale]) {
      impact = await impactOf(rule.id);
      const ledger = rule === scale ? raises : pauses;
      expect(impact.actions).toHaveLength(ledger.length);
      for (const action of impact.actions) {
        const row = ledger.find((entry) => entry.id === action.actionId)!;
        expect(action.entity).toMatchObject({ level: row.targetLevel, externalId: row.targetExternalId });
        for (const window of action.windows) {
          expectFigures(
            window.before,
            delivered(
              account,
              row.targetLevel,
              row.targetExternalId,
              addDays(actionDay, -window.days),
              addDays(actionDay, -1),
            ),
          );
          // A revert on the second day after the action leaves one whole day after it.
          const afterDays = row.id === reverted.id ? Math.min(window.days, 1) : window.days;
          expect(window.afterDays).toBe(afterDays);
          expect(window.after).not.toBeNull();
          expectFigures(
            window.after!,
            delivered(
              account,
              row.targetLevel,
              row.targetExternalId,
              addDays(actionDay, 1),
              addDays(actionDay, afterDays),
            ),
          );
        }
        if (rule === stopLoss) {
          // Paused ever since: the week before's average day × the days since the pause.
          const week = delivered(
            account,
            row.targetLevel,
            row.targetExternalId,
            addDays(actionDay, -7),
            addDays(actionDay, -1),
          );
          const days = (app().clock.now.getTime() - row.appliedAt!.getTime()) / DAY_MS;
          expect(action.spendAvoided).toMatchObject({ estimate: true, ongoing: true });
          expect(action.spendAvoided!.amount).toBeCloseTo((week.spend / 7) * days, 2);
          // Paused: nothing spent after.
          expect(action.windows.every((window) => window.after!.spend === 0)).toBe(true);
        } else expect(action.spendAvoided).toBeNull();
      }
    }

    // The scale rule's totals: budget raised, CPA and ROAS weighted by spend over the settled 7-day windows.
    const raised = raises.reduce((sum, row) => sum + ((row.afterMinor ?? 0) - (row.beforeMinor ?? 0)) / 100, 0);
    expect(impact.totals).toMatchObject({
      actionsApplied: raises.length,
      byType: { increase_budget: raises.length },
      currency: 'THB',
      budgetLowered: 0,
      spendAvoided: 0,
      compared: raises.length,
    });
    expect(impact.totals.budgetRaised).toBeCloseTo(raised, 2);
    const weighted = (side: 'before' | 'after', ratio: 'cpa' | 'roas') => {
      let weight = 0;
      let sum = 0;
      for (const row of raises) {
        const afterDays = row.id === reverted.id ? 1 : 7;
        const figures =
          side === 'before'
            ? delivered(account, row.targetLevel, row.targetExternalId, addDays(actionDay, -7), addDays(actionDay, -1))
            : delivered(
                account,
                row.targetLevel,
                row.targetExternalId,
                addDays(actionDay, 1),
                addDays(actionDay, afterDays),
              );
        const value = figures[ratio];
        if (value === null || figures.spend <= 0) continue;
        weight += figures.spend;
        sum += figures.spend * value;
      }
      return weight > 0 ? sum / weight : null;
    };
    for (const side of ['before', 'after'] as const)
      for (const ratio of ['cpa', 'roas'] as const) {
        const expected = weighted(side, ratio);
        if (expected === null) expect(impact.totals[side][ratio]).toBeNull();
        else expect(impact.totals[side][ratio]).toBeCloseTo(expected, 4);
      }
    expect(impact.daily.length).toBeGreaterThan(0);
    // Not a comparison of zeros: the raised ad sets spent before and after.
    expect(impact.actions.some((action) => action.windows[2]!.before.spend > 0)).toBe(true);
    expect(impact.actions.some((action) => (action.windows[2]!.after?.spend ?? 0) > 0)).toBe(true);

    const stopTotals = (await impactOf(stopLoss.id)).totals;
    expect(stopTotals.byType).toEqual({ pause: pauses.length });
    expect(stopTotals.spendAvoided).toBeGreaterThan(0);
  });

  it("answers 404 for another workspace's rule, 400 for a reversed range, and nothing for a rule without actions", async () => {
    const { session } = await connectedUser(app());
    const rule = await createRule(session, buildRule());
    const other = await connectedUser(app());
    const response = await rules(other.session, 'GET', `/${rule.id}/impact?from=2026-01-01&to=2026-01-31`);
    expect(response.statusCode).toBe(404);
    const mine = await rules(session, 'GET', `/${rule.id}/impact?from=2026-01-31&to=2026-01-01`);
    expect(mine.statusCode).toBe(400);
    const empty = await rules(session, 'GET', `/${rule.id}/impact?from=2026-01-01&to=2026-01-31`);
    expect(empty.json().data).toMatchObject({ actions: [], totals: { actionsApplied: 0 }, daily: [] });
  });
});
