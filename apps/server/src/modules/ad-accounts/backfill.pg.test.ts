import { addDays, localDate } from '@adpilot/contracts';
import { adAccounts, insightsDaily } from '@adpilot/db';
import type { MetaClient } from '@adpilot/meta';
import { defaultSeed } from '@adpilot/meta-sandbox';
import { and, eq, gte, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceJob } from '../../lib/scope.ts';
import { connectSandboxAccounts } from '../../test/connect-account.ts';
import { createSandboxTestApp, registerUser, type SandboxTestApp } from '../../test/test-app.ts';
import { joinAs, putOnPlan } from '../../test/workspace-fixtures.ts';
import { AdAccountBackfillService } from './ad-account-backfill.service.ts';
import { AdAccountsRepository } from './ad-accounts.repository.ts';
import { BACKFILL_CHUNK_DAYS, historyTarget } from './history-backfill.ts';

/** One account with 300 days of delivery history: the first sync reads 90 of them, the backfill the rest. */
const seed = {
  ...defaultSeed(),
  historyDays: 300,
  personas: [
    {
      name: 'Backfill advertiser',
      accounts: [
        {
          name: 'Long history',
          currency: 'THB',
          timezone: 'Asia/Bangkok',
          campaigns: 3,
          adSetsPerCampaign: 2,
          adsPerAdSet: 3,
        },
      ],
    },
  ],
};

interface Day {
  ad: string;
  date: string;
  spend: number;
  impressions: number;
  clicks: number;
  conversions: number;
  conversionValue: number;
}

describe('the history backfill against the sandbox (ADR 0103)', () => {
  let t: SandboxTestApp;
  let session: Awaited<ReturnType<typeof registerUser>>;
  let accountId: string;
  let workspaceId: string;
  let today: string;
  let token: string;
  let act: string;

  const account = async () =>
    (await t.app.inject({ method: 'GET', url: `/api/ad-accounts/${accountId}`, headers: session.auth })).json().data;
  const patch = (payload: object) =>
    t.app.inject({ method: 'PATCH', url: `/api/ad-accounts/${accountId}`, headers: session.auth, payload });

  /** The sandbox's own ad-level days over a range, straight from its Graph API. */
  async function sandboxDays(since: string, until: string): Promise<Day[]> {
    const rows = await t.ctx.meta.client().getInsights(token, act, {
      level: 'ad',
      timeRange: { since, until },
      timeIncrement: 1,
    });
    return rows.map((row) => ({
      ad: row.ad_id!,
      date: row.date_start!,
      spend: row.spend ?? 0,
      impressions: row.impressions ?? 0,
      clicks: row.clicks ?? 0,
      conversions: row.conversions ?? 0,
      conversionValue: row.conversionValue ?? 0,
    }));
  }

  /** The mirror's days of one level over a range. */
  async function mirrorDays(level: 'ad' | 'campaign', since: string, until: string): Promise<Day[]> {
    const rows = await t.inspect((db) =>
      db
        .select()
        .from(insightsDaily)
        .where(
          and(
            eq(insightsDaily.adAccountId, accountId),
            eq(insightsDaily.level, level),
            gte(insightsDaily.date, since),
            lte(insightsDaily.date, until),
          ),
        ),
    );
    return rows.map((row) => ({
      ad: row.entityExternalId,
      date: row.date,
      spend: Number(row.spend),
      impressions: Number(row.impressions),
      clicks: Number(row.clicks),
      conversions: Number(row.conversions),
      conversionValue: Number(row.conversionValue),
    }));
  }

  const byKey = (days: Day[]) => new Map(days.map((day) => [`${day.ad}:${day.date}`, day]));

  beforeAll(async () => {
    t = await createSandboxTestApp({}, {}, { seed });
    session = await registerUser(t.app);
    [accountId] = (await connectSandboxAccounts(t.app, session.auth)) as [string];
    const [row] = await t.inspect((db) => db.select().from(adAccounts).where(eq(adAccounts.id, accountId)));
    workspaceId = row!.workspaceId;
    token = t.secretBox.decrypt(row!.accessTokenEnc);
    act = `act_${row!.facebookAccountId}`;
    today = localDate(row!.timezone, t.clock.now.getTime());
  }, 120_000);
  afterAll(() => t.close());

  it('reads 90 days on the first sync and shows the history complete for the default setting', async () => {
    const data = await account();
    expect(data.backfill_days).toBe(90);
    expect(data.history).toEqual({ from: addDays(today, -89), days: 90, target_days: 90, complete: true });
    expect(await mirrorDays('ad', '2000-01-01', addDays(today, -90))).toEqual([]);
  });

  it('refuses a setting outside 30 to 1125 days with a 400 in the envelope', async () => {
    for (const backfill_days of [29, 1126, 90.5, '180']) {
      const response = await patch({ backfill_days });
      expect(response.statusCode).toBe(400);
      expect(response.json().success).toBe(false);
    }
    expect((await account()).backfill_days).toBe(90);
  });

  it('lets a viewer read the progress but not change the setting (403)', async () => {
    await putOnPlan(t, workspaceId, 'business');
    const viewer = await joinAs(t, session, workspaceId, 'viewer');
    const headers = { ...viewer.auth, 'x-workspace-id': workspaceId };
    const read = await t.app.inject({ method: 'GET', url: `/api/ad-accounts/${accountId}`, headers });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data.history.complete).toBe(true);
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/ad-accounts/${accountId}`,
      headers,
      payload: { backfill_days: 365 },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, code: 'FORBIDDEN' });
    expect((await account()).backfill_days).toBe(90);
  });

  it('resumes from the day it reached after a stop part way', async () => {
    await t.inspect((db) => db.update(adAccounts).set({ backfillDays: 200 }).where(eq(adAccounts.id, accountId)));
    // A client that stops answering after two chunks: a crash or a limit in the middle of the run.
    const real = t.ctx.meta.client();
    let reads = 0;
    const failing = new Proxy(real, {
      get(target, name, receiver) {
        if (name === 'getInsights') {
          return (...args: Parameters<MetaClient['getInsights']>) => {
            reads += 1;
            if (reads > 2) throw new Error('stopped');
            return target.getInsights(...args);
          };
        }
        return Reflect.get(target, name, receiver) as unknown;
      },
    });
    const stopping = new AdAccountBackfillService({
      transactions: t.ctx.database,
      repository: new AdAccountsRepository(),
      metaClient: () => failing,
      secretBox: t.secretBox,
      now: () => t.clock.now,
    });
    await expect(stopping.backfill(workspaceJob(workspaceId), accountId)).rejects.toThrow('stopped');
    const reached = addDays(today, -(89 + 2 * BACKFILL_CHUNK_DAYS));
    expect((await account()).history).toEqual({ from: reached, days: 150, target_days: 200, complete: false });

    const resumed = await t.ctx.modules.adAccounts.backfill.backfill(workspaceJob(workspaceId), accountId);
    expect(resumed).toEqual({ status: 'complete', chunks: 2, historyFrom: addDays(today, -199) });
    expect((await account()).history).toEqual({
      from: addDays(today, -199),
      days: 200,
      target_days: 200,
      complete: true,
    });
    // Nothing is left to read: a second run asks Meta for nothing.
    expect(await t.ctx.modules.adAccounts.backfill.backfill(workspaceJob(workspaceId), accountId)).toMatchObject({
      status: 'complete',
      chunks: 0,
    });
  });

  it('backfills a longer setting set by PATCH, and every backfilled figure equals the sandbox’s own', async () => {
    const response = await patch({ backfill_days: 280 });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.backfill_days).toBe(280);
    expect(response.json().data.history).toEqual({
      from: addDays(today, -279),
      days: 280,
      target_days: 280,
      complete: true,
    });

    const since = addDays(today, -279);
    const until = addDays(today, -90);
    const expected = await sandboxDays(since, until);
    expect(expected.length).toBeGreaterThan(18 * 150);
    const mirrored = byKey(await mirrorDays('ad', since, until));
    expect(mirrored.size).toBe(expected.length);
    for (const day of expected) {
      const row = mirrored.get(`${day.ad}:${day.date}`);
      expect(row).toBeDefined();
      expect(row!.spend).toBeCloseTo(day.spend, 4);
      expect(row!.impressions).toBe(day.impressions);
      expect(row!.clicks).toBe(day.clicks);
      expect(row!.conversions).toBeCloseTo(day.conversions, 4);
      expect(row!.conversionValue).toBeCloseTo(day.conversionValue, 4);
    }

    // The campaigns' days are the sums of their ads' days, as the sync writes them.
    const ads = await t.ctx.meta.client().listAds(token, act);
    const campaignOf = new Map(ads.map((ad) => [ad.id, ad.campaign_id]));
    const sums = new Map<string, { spend: number; impressions: number }>();
    for (const day of expected) {
      const key = `${campaignOf.get(day.ad)}:${day.date}`;
      const sum = sums.get(key) ?? { spend: 0, impressions: 0 };
      sums.set(key, { spend: sum.spend + day.spend, impressions: sum.impressions + day.impressions });
    }
    const campaigns = byKey(await mirrorDays('campaign', since, until));
    expect(campaigns.size).toBe(sums.size);
    for (const [key, sum] of sums) {
      expect(campaigns.get(key)!.spend).toBeCloseTo(sum.spend, 4);
      expect(campaigns.get(key)!.impressions).toBe(sum.impressions);
    }
  });

  it('writes each chunk once when two runs go at the same time', async () => {
    await t.inspect((db) => db.update(adAccounts).set({ backfillDays: 320 }).where(eq(adAccounts.id, accountId)));
    const { backfill } = t.ctx.modules.adAccounts;
    const runs = await Promise.all([
      backfill.backfill(workspaceJob(workspaceId), accountId),
      backfill.backfill(workspaceJob(workspaceId), accountId),
    ]);
    expect(runs.map((run) => run.status)).toEqual(['complete', 'complete']);
    expect(runs.map((run) => run.historyFrom)).toEqual([addDays(today, -319), addDays(today, -319)]);
    // 40 more days are two chunks (30 and 10), each written by one of the runs.
    expect(runs[0]!.chunks + runs[1]!.chunks).toBe(2);
    const since = addDays(today, -319);
    const until = addDays(today, -280);
    expect((await mirrorDays('ad', since, until)).length).toBe((await sandboxDays(since, until)).length);
  });

  it('reads back to Meta’s 37 months at the most, and nothing is refused on the way', async () => {
    const response = await patch({ backfill_days: 1125 });
    expect(response.statusCode).toBe(200);
    const { history } = response.json().data;
    const target = historyTarget(today, 1125);
    expect(history).toMatchObject({ from: target, complete: true });
    expect(history.days).toBe(history.target_days);
    // The sandbox's history begins 300 days before its anchor, a UTC day (a day behind the account's own between
    // 17:00 and 24:00 UTC): the days before it hold nothing, not zeros.
    const anchorDay = t.clock.now.toISOString().slice(0, 10);
    expect(await mirrorDays('ad', target, addDays(anchorDay, -301))).toEqual([]);
  });
});
