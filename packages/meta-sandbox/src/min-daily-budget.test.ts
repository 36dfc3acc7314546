import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MetaInvalidParameterError } from '@adpilot/meta';
import { startFixture, type Fixture } from '../test/fixtures.ts';

// Five minutes after midnight in Tokyo: almost nothing is spent yet today, so lowering a budget to the minimum
// is refused only for the minimum, never for Meta's "10% above today's spend" rule.
const TOKYO_JUST_AFTER_MIDNIGHT = '2026-03-09T15:05:00Z';

let fixture: Fixture;
beforeEach(async () => {
  fixture = await startFixture({ at: TOKYO_JUST_AFTER_MIDNIGHT });
});
afterEach(() => fixture.close());

function tokyo() {
  const world = fixture.sandbox.world;
  const account = [...world.accounts.values()].find((candidate) => candidate.currency === 'JPY')!;
  const now = fixture.clock.now();
  const adSet = world
    .accountAdSets(account)
    .find(
      (candidate) =>
        !world.campaignOf(candidate).isCbo &&
        candidate.budgetLog.at(-1)?.dailyBudget !== undefined &&
        world.effectiveStatus({ kind: 'adset', entity: candidate }, now) === 'ACTIVE',
    )!;
  return { account, adSet, token: fixture.sandbox.issueToken(account.personaId) };
}

describe("the account's minimum daily budget", () => {
  it('serves min_daily_budget as a number in minor units, one US dollar’s worth in each currency', async () => {
    const minimums: Record<string, unknown> = {};
    for (const persona of fixture.sandbox.personas) {
      const token = fixture.sandbox.issueToken(persona.id);
      for (const account of await fixture.client().listAdAccounts(token))
        minimums[account.currency] = account.min_daily_budget;
    }
    // JPY has no minor unit (offset 1); the others count cents, satang, pence.
    expect(minimums).toEqual({ THB: 3500, USD: 100, EUR: 92, JPY: 150, GBP: 79 });

    const { account, token } = tokyo();
    const proof = fixture.sandbox.tokens.appSecretProof(token);
    const raw = await fetch(`${fixture.url}/v27.0/act_${account.id}?fields=min_daily_budget&appsecret_proof=${proof}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await raw.json()).toEqual({ min_daily_budget: 150, id: `act_${account.id}` });
  });

  it('refuses a daily budget one unit under the served minimum with 100/1885272 naming it, and takes the minimum', async () => {
    const { account, adSet, token } = tokyo();
    const client = fixture.client();
    const served = (await client.getAdAccount(token, `act_${account.id}`)).min_daily_budget!;
    expect(served).toBe(150);

    const under = client.updateBudget(token, adSet.id, { dailyBudget: served - 1 });
    await expect(under).rejects.toBeInstanceOf(MetaInvalidParameterError);
    await expect(under).rejects.toMatchObject({
      code: 100,
      subcode: 1885272,
      message: expect.stringContaining('Your budget is too low. The minimum budget is JPY 150.'),
    });
    expect(adSet.budgetLog.at(-1)?.dailyBudget).not.toBe(served - 1);

    await client.updateBudget(token, adSet.id, { dailyBudget: served });
    expect(adSet.budgetLog.at(-1)?.dailyBudget).toBe(served);
  });
});
