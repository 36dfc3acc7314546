import { addDays, BACKFILL_DAYS_DEFAULT, localDate, RULE_TEMPLATES } from '@adpilot/contracts';
import { adFatigue, FATIGUE_THRESHOLD, type FatigueDay } from '@adpilot/engine';
import { describe, expect, it } from 'vitest';
import { connectedUser, rulesSandboxApp } from '../../../test/rules-sandbox.ts';

const { app, sandbox, rules } = rulesSandboxApp();

/**
 * The ad's days the first sync fetched, straight from the sandbox's delivery model (not the mirror), major units:
 * the backfill's days, from the first day of the sandbox's history (its insights begin there).
 */
function sandboxDays(adId: string, today: string, offset: number): FatigueDay[] {
  const world = sandbox().sandbox.world;
  const ad = world.ads.get(adId)!;
  const now = sandbox().sandbox.now();
  const firstDay = localDate(world.accountOf(ad).timezone, world.historyStart);
  const days: FatigueDay[] = [];
  for (let ago = 1; ago < BACKFILL_DAYS_DEFAULT && addDays(today, -ago) >= firstDay; ago++) {
    const day = sandbox().sandbox.delivery.adDay(ad, addDays(today, -ago), now);
    if (day)
      days.push({ ago, impressions: day.impressions, clicks: day.clicks, spend: day.spend / offset, reach: day.reach });
  }
  return days;
}

describe('creative fatigue on the sandbox', () => {
  it('a worn ad scores above the threshold and matches the template; a fresh one of the same ad set scores below', async () => {
    const world = sandbox().sandbox.world;
    const account = [...world.accounts.values()].find((candidate) => candidate.currency === 'THB')!;
    const today = localDate(account.timezone, app().clock.now.getTime());
    // Two ads that delivered nearly every day of the last month, the busiest first: a worn creative is shown less,
    // and the score needs its recent days to hold enough impressions to judge (on some days of the sandbox's
    // calendar the first such ad fell under that floor once worn, and scored "not enough data").
    const recentImpressions = (adId: string) =>
      sandboxDays(adId, today, 100)
        .filter((day) => day.ago <= 7)
        .reduce((sum, day) => sum + day.impressions, 0);
    const delivering = world
      .accountAds(account)
      .filter(
        (ad) => sandboxDays(ad.id, today, 100).filter((day) => day.ago <= 30 && day.impressions > 500).length >= 28,
      )
      .sort((a, b) => recentImpressions(b.id) - recentImpressions(a.id));
    const [worn, fresh] = delivering;
    expect(fresh).toBeDefined();
    sandbox().sandbox.makeFatigued(worn!.id, addDays(today, -20));

    const { session, accounts } = await connectedUser(app());
    const row = accounts.find((candidate) => candidate.facebookAccountId === account.id)!;
    const template = RULE_TEMPLATES.find((candidate) => candidate.id === 'creative_fatigue')!;
    const response = await rules(session, 'POST', '/preview', {
      ...template.rule,
      scope: { ...template.rule.scope, adAccountIds: [row.id] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { entities } = response.json().data as {
      entities: {
        entity: { externalId: string };
        matched: boolean;
        explanation: { conditions: { items: { value: number | null }[] } };
      }[];
    };
    const scoreOf = (id: string) => entities.find((decision) => decision.entity.externalId === id)!;
    const wornDecision = scoreOf(worn!.id);
    const freshDecision = scoreOf(fresh!.id);
    // The score the rule saw is the pure function's over the sandbox's own days.
    expect(wornDecision.explanation.conditions.items[0]!.value).toBe(
      adFatigue(sandboxDays(worn!.id, today, 100)).score,
    );
    expect(freshDecision.explanation.conditions.items[0]!.value).toBe(
      adFatigue(sandboxDays(fresh!.id, today, 100)).score,
    );
    expect(wornDecision.explanation.conditions.items[0]!.value).toBeGreaterThanOrEqual(FATIGUE_THRESHOLD);
    expect(wornDecision.matched).toBe(true);
    expect(freshDecision.explanation.conditions.items[0]!.value).toBeLessThan(FATIGUE_THRESHOLD);
    expect(freshDecision.matched).toBe(false);
  });
});
