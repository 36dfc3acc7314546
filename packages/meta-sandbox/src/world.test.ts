import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MetaBudgetLimitError, MetaInvalidParameterError } from '@adpilot/meta';
import type { MetaClient } from '@adpilot/meta';
import { startFixture, type Fixture } from '../test/fixtures.ts';
import { createSandbox } from './create-sandbox.ts';
import { buildWorld } from './world/build-world.ts';
import { defaultSeed } from './world/seed.ts';
import { HOUR_MS } from './world/time-zone.ts';
import { statusAt } from './world/world.ts';
import type { SandboxAdSet } from './world/types.ts';

const DAY = 24 * HOUR_MS;

// Tests change budgets and statuses and move the clock: each gets a fresh sandbox at FIXTURE_TIME.
let fixture: Fixture;
let client: MetaClient;
beforeEach(async () => {
  fixture = await startFixture();
  client = fixture.client();
});
afterEach(() => fixture.close());

/** Active non-CBO ad sets with a daily budget in the Bangkok account, as the fixture's clock sees them. */
function dailyAdSets(): SandboxAdSet[] {
  const world = fixture.sandbox.world;
  const account = world.account(fixture.sandbox.personas[0]?.accountIds[0] ?? '');
  const now = fixture.clock.now();
  return world
    .accountAdSets(account!)
    .filter((adSet) => world.effectiveStatus({ kind: 'adset', entity: adSet }, now) === 'ACTIVE')
    .filter((adSet) => adSet.budgetLog.at(-1)?.dailyBudget !== undefined)
    .filter((adSet) => world.adsOf(adSet).some((ad) => statusAt(ad.statusLog, now) === 'ACTIVE'));
}

async function spendOn(id: string, date: string): Promise<number> {
  const rows = await client.getInsights(fixture.token, id, {
    level: 'adset',
    timeRange: { since: date, until: date },
    accountId: fixture.sandbox.personas[0]?.accountIds[0],
  });
  return rows.reduce((sum, row) => sum + (row.spend ?? 0), 0);
}

describe('metric model', () => {
  it('spends close to the daily budget, in the account time zone, and today only so far', async () => {
    const [adSet] = dailyAdSets();
    const budget = (adSet?.budgetLog.at(-1)?.dailyBudget ?? 0) / 100;
    const yesterday = await spendOn(adSet!.id, '2026-03-09');
    expect(yesterday).toBeGreaterThan(budget * 0.8);
    expect(yesterday).toBeLessThanOrEqual(budget);
    // 03:00 UTC is 10:00 in Bangkok: about 10/24 of a day has been spent.
    expect((await spendOn(adSet!.id, '2026-03-10')) / yesterday).toBeGreaterThan(0.3);
    expect((await spendOn(adSet!.id, '2026-03-10')) / yesterday).toBeLessThan(0.55);
  });

  it('a budget raise shows in the next day’s spend', async () => {
    const adSet = dailyAdSets()[1]!;
    const budget = adSet.budgetLog.at(-1)?.dailyBudget ?? 0;
    const before = await spendOn(adSet.id, '2026-03-09');
    await client.updateBudget(fixture.token, adSet.id, { dailyBudget: budget * 2 });
    fixture.clock.advance(2 * DAY);
    const after = await spendOn(adSet.id, '2026-03-11');
    expect(after / before).toBeGreaterThan(1.6);
    expect(after).toBeLessThanOrEqual((budget * 2) / 100);
  });

  it('a pause stops spend from the moment it is made, for the ad set and its ads', async () => {
    const adSet = dailyAdSets()[2]!;
    const [today] = await client.getInsights(fixture.token, adSet.id, {
      level: 'adset',
      timeRange: { since: '2026-03-10', until: '2026-03-10' },
    });
    const spentBeforePause = today?.spend ?? 0;
    expect(spentBeforePause).toBeGreaterThan(0);
    await client.updateStatus(fixture.token, adSet.id, 'PAUSED');
    fixture.clock.advance(DAY);
    const rows = await client.getInsights(fixture.token, adSet.id, {
      level: 'ad',
      timeRange: { since: '2026-03-10', until: '2026-03-11' },
    });
    expect(rows.filter((row) => row.date_start === '2026-03-11')).toEqual([]);
    const pausedDay = rows
      .filter((row) => row.date_start === '2026-03-10')
      .reduce((sum, row) => sum + (row.spend ?? 0), 0);
    expect(pausedDay).toBeCloseTo(spentBeforePause, 0);
    const ads = await client.listAds(fixture.token, `act_${adSet.accountId}`);
    expect(ads.filter((ad) => ad.adset_id === adSet.id).every((ad) => ad.effective_status !== 'ACTIVE')).toBe(true);
  });
});

describe('Meta rules', () => {
  it('allows 4 budget changes per hour on an ad set; the 5th answers plain code 17: budget-limit error at once', async () => {
    const adSet = dailyAdSets()[3]!;
    const budget = adSet.budgetLog.at(-1)?.dailyBudget ?? 0;
    for (let change = 1; change <= 4; change++) {
      await client.updateBudget(fixture.token, adSet.id, { dailyBudget: budget + change * 1000 });
      fixture.clock.advance(60_000);
    }
    fixture.sandbox.stats.reset();
    fixture.sleeps.length = 0;
    const fifth = client.updateBudget(fixture.token, adSet.id, { dailyBudget: budget + 5000 });
    await expect(fifth).rejects.toBeInstanceOf(MetaBudgetLimitError);
    await expect(fifth).rejects.toMatchObject({
      code: 17,
      subcode: undefined,
      message: '(#17) User request limit reached',
      retryAfterMs: HOUR_MS,
    });
    expect(fixture.sandbox.stats.total).toBe(1);
    expect(fixture.sleeps).toEqual([]);
    // The ad set stays blocked for an hour from the refused change, even once older changes leave the window.
    fixture.clock.advance(30 * 60_000);
    await expect(client.updateBudget(fixture.token, adSet.id, { dailyBudget: budget + 5000 })).rejects.toBeInstanceOf(
      MetaBudgetLimitError,
    );
    fixture.clock.advance(HOUR_MS);
    await client.updateBudget(fixture.token, adSet.id, { dailyBudget: budget + 5000 });
  });

  it('applies the hourly limit to ad sets only: a campaign budget can change a 5th time', async () => {
    const world = fixture.sandbox.world;
    const account = world.account(fixture.sandbox.personas[0]?.accountIds[0] ?? '')!;
    const cbo = world.campaignsOf(account).find((campaign) => campaign.isCbo)!;
    const budget = cbo.budgetLog.at(-1)?.dailyBudget ?? 0;
    for (let change = 1; change <= 5; change++) {
      await client.updateBudget(fixture.token, cbo.id, { dailyBudget: budget + change * 1000 });
      fixture.clock.advance(60_000);
    }
    expect(cbo.budgetLog.at(-1)?.dailyBudget).toBe(budget + 5000);
  });

  it('validates status values and where a budget may be set', async () => {
    const world = fixture.sandbox.world;
    const account = world.account(fixture.sandbox.personas[0]?.accountIds[0] ?? '')!;
    const cbo = world.campaignsOf(account).find((campaign) => campaign.isCbo)!;
    const response = await fetch(`${fixture.url}/v27.0/${cbo.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fixture.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        status: 'DELETED',
        appsecret_proof: fixture.sandbox.tokens.appSecretProof(fixture.token),
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(100);
    const underCbo = world.adSetsOf(cbo)[0]!;
    const conflict = client.updateBudget(fixture.token, underCbo.id, { dailyBudget: 500_000 });
    await expect(conflict).rejects.toBeInstanceOf(MetaInvalidParameterError);
    await expect(conflict).rejects.toMatchObject({ code: 100, subcode: 1885621 });
    await client.updateBudget(fixture.token, cbo.id, { dailyBudget: 900_000 });
    expect(
      (await client.listCampaigns(fixture.token, `act_${account.id}`)).find((c) => c.id === cbo.id)?.daily_budget,
    ).toBe('900000');
  });
});

describe('determinism and persistence', () => {
  it('adds the lifecycle examples without changing any other object of the world', () => {
    const seed = defaultSeed();
    const without = {
      ...seed,
      personas: seed.personas.map((persona) => ({
        ...persona,
        accounts: persona.accounts.map((account) => ({ ...account, lifecycleExamples: false })),
      })),
    };
    const plain = buildWorld(without, '2026-03-10');
    const full = buildWorld(seed, '2026-03-10');
    for (const kind of ['campaigns', 'adSets', 'ads'] as const) {
      for (const [id, entity] of plain[kind]) {
        const same = full[kind].get(id);
        expect(same && { ...same, adSetIds: undefined, adIds: undefined, campaignIds: undefined }).toEqual({
          ...entity,
          adSetIds: undefined,
          adIds: undefined,
          campaignIds: undefined,
        });
      }
    }
    const extra = [...full.campaigns.values()].filter((campaign) => !plain.campaigns.has(campaign.id));
    expect(extra.map((campaign) => campaign.name)).toEqual([
      'Spring Sale 2025',
      'Creative Test Batch',
      'New Arrivals Launch',
      'Spring Sale 2025',
      'Creative Test Batch',
      'New Arrivals Launch',
    ]);
  });

  it('builds the same world, byte for byte, from the same seed; another seed differs', async () => {
    const answers = async (seed: string): Promise<string> => {
      const other = await startFixture({ seed: { seed } });
      const c = other.client();
      const results: unknown[] = [await c.listAdAccounts(other.token)];
      for (const id of other.sandbox.personas[0]?.accountIds ?? []) {
        results.push(
          await c.listCampaigns(other.token, id),
          await c.listAdSets(other.token, id),
          await c.listAds(other.token, id),
        );
      }
      const first = `act_${other.sandbox.personas[0]?.accountIds[0]}`;
      results.push(
        await c.getInsights(other.token, first, {
          level: 'ad',
          timeRange: { since: '2026-02-25', until: '2026-03-10' },
        }),
      );
      await other.close();
      return JSON.stringify(results);
    };
    const first = await answers('same');
    expect(await answers('same')).toBe(first);
    expect(await answers('different')).not.toBe(first);
  });

  it('keeps writes in the state file across a restart; reset goes back to the seed', () => {
    const directory = mkdtempSync(join(tmpdir(), 'meta-sandbox-'));
    try {
      const stateFile = join(directory, 'state.json');
      const now = () => new Date('2026-03-10T03:00:00Z');
      const first = createSandbox({ stateFile, now });
      const adId = [...first.world.ads.keys()][0]!;
      first.recordMutation({ at: now().getTime(), objectId: adId, status: 'PAUSED' });

      const restarted = createSandbox({ stateFile, now: () => new Date('2026-03-20T03:00:00Z') });
      expect(statusAt(restarted.world.ads.get(adId)!.statusLog, Date.parse('2026-03-20T03:00:00Z'))).toBe('PAUSED');
      expect([...restarted.world.ads.keys()][0]).toBe(adId);

      restarted.reset();
      expect(createSandbox({ stateFile, now }).mutations).toEqual([]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
