import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../test/fixtures.ts';
import { budgetAt, statusAt } from './world/world.ts';
import type { SandboxAccount, SandboxAdSet } from './world/types.ts';

let fixture: Fixture;
let account: SandboxAccount;
let adSet: SandboxAdSet;

/** An active ad set of Siam Living Store that holds its own daily budget. */
function budgetAdSet(): SandboxAdSet {
  const now = fixture.clock.now();
  const found = fixture.sandbox.world
    .accountAdSets(account)
    .find(
      (candidate) =>
        !fixture.sandbox.world.campaignOf(candidate).isCbo &&
        statusAt(candidate.statusLog, now) === 'ACTIVE' &&
        budgetAt(candidate.budgetLog, now)?.dailyBudget !== undefined,
    );
  if (!found) throw new Error('the seeded world has no active ad set with a daily budget');
  return found;
}

beforeAll(async () => {
  fixture = await startFixture();
  const persona = fixture.sandbox.personas[0];
  account = fixture.sandbox.world.account(persona?.accountIds[0] ?? '') as SandboxAccount;
  adSet = budgetAdSet();
});
afterAll(() => fixture.close());

const proof = () => fixture.sandbox.tokens.appSecretProof(fixture.token);
const get = async (path: string) => {
  const response = await fetch(
    `${fixture.url}/v27.0/${path}${path.includes('?') ? '&' : '?'}appsecret_proof=${proof()}`,
    {
      headers: { authorization: `Bearer ${fixture.token}` },
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('GET /act_{id}/activities', () => {
  it('records each status and budget change with who made it and through which app', async () => {
    const client = fixture.client();
    const before = budgetAt(adSet.budgetLog, fixture.clock.now())?.dailyBudget ?? 0;
    await client.updateBudget(fixture.token, adSet.id, { dailyBudget: before + 10_000 }, { accountId: account.id });
    fixture.clock.advance(60_000);
    await client.updateStatus(fixture.token, adSet.id, 'PAUSED', { accountId: account.id });
    fixture.clock.advance(60_000);

    const activities = await client.listActivities(fixture.token, account.id, {
      since: new Date(fixture.clock.now() - 3_600_000),
    });
    expect(activities.map((activity) => activity.event_type)).toEqual([
      'update_ad_set_run_status',
      'update_ad_set_budget',
    ]);
    const [status, budget] = activities;
    expect(status).toMatchObject({
      actor_id: fixture.sandbox.personas[0]?.id,
      actor_name: 'Sandbox Store Owner',
      application_id: fixture.sandbox.appId,
      application_name: 'AdPilot Sandbox App',
      object_id: adSet.id,
      object_name: adSet.name,
      object_type: 'AD_SET',
      translated_event_type: 'Ad set status updated',
    });
    expect(JSON.parse(status?.extra_data ?? '{}')).toEqual({ old_value: 'ACTIVE', new_value: 'PAUSED' });
    expect(JSON.parse(budget?.extra_data ?? '{}')).toEqual({
      type: 'daily_budget',
      currency: 'THB',
      old_value: before,
      new_value: before + 10_000,
    });
    // Graph's time format in the account's zone, as every other time field.
    expect(budget?.event_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0700$/);
  });

  it('answers the default fields without `fields`, and refuses an unknown one', async () => {
    const plain = await get(`act_${account.id}/activities`);
    expect(Object.keys((plain.body.data as object[])[0] ?? {}).sort()).toEqual(['event_time', 'event_type']);
    const unknown = await get(`act_${account.id}/activities?fields=event_type,budget`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: { code: 100 } });
  });

  it('keeps to since and until (unix seconds or dates) and to one object with oid', async () => {
    const now = Math.floor(fixture.clock.now() / 1000);
    const all = await get(`act_${account.id}/activities?since=${now - 3600}`);
    expect(all.body.data).toHaveLength(2);
    const early = await get(`act_${account.id}/activities?since=${now - 3600}&until=${now - 90}`);
    expect(early.body.data).toEqual([expect.objectContaining({ event_type: 'update_ad_set_budget' })]);
    const later = await get(`act_${account.id}/activities?since=${now + 60}`);
    expect(later.body.data).toEqual([]);
    const byDate = await get(`act_${account.id}/activities?since=2026-03-01`);
    expect(byDate.body.data).toHaveLength(2);
    const other = await get(`act_${account.id}/activities?oid=${account.campaignIds[0]}`);
    expect(other.body.data).toEqual([]);
    const bad = await get(`act_${account.id}/activities?since=yesterday`);
    expect(bad.status).toBe(400);
  });

  it('pages with cursors and absolute next links that the client follows', async () => {
    const first = await get(`act_${account.id}/activities?limit=1`);
    expect(first.body.data).toHaveLength(1);
    const paging = first.body.paging as { next?: string };
    expect(paging.next).toMatch(/\/v27\.0\/act_\d+\/activities\?.*after=/);
    const client = fixture.client({ pageSize: 1 });
    const since = new Date(fixture.clock.now() - 3_600_000);
    expect(await client.listActivities(fixture.token, account.id, { since })).toHaveLength(2);
  });

  it("shows only the caller's own accounts", async () => {
    const other = fixture.sandbox.personas[1]?.accountIds[0] ?? '';
    const answer = await get(`act_${other}/activities`);
    expect(answer.status).toBe(400);
  });
});
