import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetaApiError, MetaClient } from '@adpilot/meta';
import { TestClock } from '../test/fixtures.ts';
import { startSandboxServer, type RunningSandbox } from './http/server.ts';
import type { SandboxSeed } from './world/seed.ts';

/** One account: campaign budgets on the first campaign (Advantage campaign budget), ad set budgets on the second. */
const SEED: SandboxSeed = {
  seed: 'budget-schedules',
  personas: [
    {
      name: 'Schedules User',
      accounts: [
        {
          id: '551551551',
          name: 'Schedules',
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
};

let running: RunningSandbox;
let token: string;
const clock = new TestClock('2026-12-03T12:00:00Z');
beforeAll(async () => {
  running = await startSandboxServer({ seed: SEED, now: clock.date });
  token = running.sandbox.issueToken();
});
afterAll(() => running.close());

async function graph(method: string, path: string, params: Record<string, string | number> = {}) {
  const query = new URLSearchParams({
    access_token: token,
    appsecret_proof: createHmac('sha256', running.sandbox.appSecret).update(token).digest('hex'),
  });
  const body = new URLSearchParams(
    Object.entries(params).map(([key, value]): [string, string] => [key, String(value)]),
  );
  const response = await fetch(`${running.url}/v27.0/${path}?${query}${method === 'GET' ? `&${body}` : ''}`, {
    method,
    ...(method === 'GET' ? {} : { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

type Row = { id: string; daily_budget?: string; lifetime_budget?: string; campaign_id?: string };
async function objects() {
  const campaigns = (await graph('GET', 'act_551551551/campaigns', { fields: 'id,daily_budget,lifetime_budget' })).body
    .data as Row[];
  const adsets = (await graph('GET', 'act_551551551/adsets', { fields: 'id,campaign_id,daily_budget,lifetime_budget' }))
    .body.data as Row[];
  const ads = (await graph('GET', 'act_551551551/ads', { fields: 'id' })).body.data as Row[];
  const hasBudget = (row: Row) => Boolean(Number(row.daily_budget ?? 0) || Number(row.lifetime_budget ?? 0));
  return {
    cbo: campaigns.find(hasBudget)!,
    abo: campaigns.find((row) => !hasBudget(row))!,
    ownAdSet: adsets.find(hasBudget)!,
    cboAdSet: adsets.find((row) => !hasBudget(row))!,
    ad: ads[0]!,
  };
}

const start = Math.floor(Date.parse('2026-12-04T13:00:00Z') / 1000);
const boost = { budget_value: 150, budget_value_type: 'MULTIPLIER', time_start: start, time_end: start + 4 * 3600 };

describe("budget_schedules as Meta's Marketing API serves them", () => {
  it('creates a schedule on a campaign budget and on an ad set budget, lists it by time, and deletes it', async () => {
    const { cbo, ownAdSet } = await objects();
    for (const holder of [cbo, ownAdSet]) {
      const created = await graph('POST', `${holder.id}/budget_schedules`, boost);
      expect(created.status).toBe(200);
      expect(created.body.id).toMatch(/^\d+$/);
      const listed = await graph('GET', `${holder.id}/budget_schedules`);
      expect(listed.body.data).toEqual([
        {
          id: created.body.id,
          budget_value: 150,
          budget_value_type: 'MULTIPLIER',
          time_start: start,
          time_end: start + 4 * 3600,
        },
      ]);
      // Meta's search parameters: time_start keeps those ending after it, time_stop those starting before it.
      expect((await graph('GET', `${holder.id}/budget_schedules`, { time_start: start + 4 * 3600 })).body.data).toEqual(
        [],
      );
      expect((await graph('GET', `${holder.id}/budget_schedules`, { time_stop: start })).body.data).toEqual([]);
      const deleted = await graph('DELETE', String(created.body.id));
      expect(deleted).toEqual({ status: 200, body: { success: true } });
      expect((await graph('GET', `${holder.id}/budget_schedules`)).body.data).toEqual([]);
      expect((await graph('DELETE', String(created.body.id))).status).toBe(400);
    }
  });

  it('refuses where the entity holds no budget of its own, and on ads', async () => {
    const { abo, cboAdSet, ad } = await objects();
    for (const id of [abo.id, cboAdSet.id]) {
      const refused = await graph('POST', `${id}/budget_schedules`, boost);
      expect(refused.status).toBe(400);
      expect((refused.body.error as { code: number }).code).toBe(100);
    }
    const onAd = await graph('POST', `${ad.id}/budget_schedules`, boost);
    expect(onAd.status).toBe(400);
  });

  it('validates the parameters as documented: all four required, the type ABSOLUTE or MULTIPLIER, integers', async () => {
    const { cbo } = await objects();
    const cases: Record<string, unknown>[] = [
      { ...boost, budget_value_type: 'PERCENT' },
      { ...boost, budget_value: '1.5' },
      { ...boost, time_end: boost.time_start },
      Object.fromEntries(Object.entries(boost).filter(([key]) => key !== 'time_end')),
      Object.fromEntries(Object.entries(boost).filter(([key]) => key !== 'budget_value_type')),
    ];
    for (const params of cases) {
      const refused = await graph('POST', `${cbo.id}/budget_schedules`, params as Record<string, string>);
      expect(refused.status, JSON.stringify(params)).toBe(400);
      expect((refused.body.error as { code: number }).code).toBe(100);
    }
    expect((await graph('GET', `${cbo.id}/budget_schedules`)).body.data).toEqual([]);
  });

  it('is spoken by the client: create, list by window, a real DELETE to revert, and the refusal as an error', async () => {
    const client = new MetaClient({
      graphBaseUrl: running.url,
      appId: running.sandbox.appId,
      appSecret: running.sandbox.appSecret,
    });
    const { cbo, cboAdSet } = await objects();
    const window = { timeStart: new Date(start * 1000), timeEnd: new Date((start + 3600) * 1000) };
    const id = await client.createBudgetSchedule(token, cbo.id, {
      budgetValue: 5000,
      budgetValueType: 'ABSOLUTE',
      ...window,
    });
    expect(await client.listBudgetSchedules(token, cbo.id, { from: window.timeStart })).toEqual([
      { id, budgetValue: 5000, budgetValueType: 'ABSOLUTE', ...window },
    ]);
    await client.deleteBudgetSchedule(token, id);
    expect(await client.listBudgetSchedules(token, cbo.id)).toEqual([]);
    await expect(
      client.createBudgetSchedule(token, cboAdSet.id, { budgetValue: 150, budgetValueType: 'MULTIPLIER', ...window }),
    ).rejects.toBeInstanceOf(MetaApiError);
  });
});
