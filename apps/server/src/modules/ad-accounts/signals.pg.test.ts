import { addDays, currencyOffset, localDate, startOfLocalDay } from '@adpilot/contracts';
import { activityLogs, anomalyEpisodes, type AdAccountRow } from '@adpilot/db';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { connectedUser, rulesSandboxApp, thbAccount, type Session } from '../../test/rules-sandbox.ts';
import { markEmailVerified } from '../../test/test-app.ts';
import { NotificationsRepository } from '../notifications/notifications.repository.ts';

const { app, sandbox } = rulesSandboxApp();
const HOUR = 3_600_000;

/**
 * Moves the clock forward to `day` of the next local month of `timeZone` at `minutes` past midnight, so each test
 * runs on a date of its own choosing whatever ran before it.
 */
function advanceTo(timeZone: string, day: number, minutes: number): string {
  const today = localDate(timeZone, app().clock.now.getTime());
  const [year, month] = today.split('-').map(Number) as [number, number];
  const next = new Date(Date.UTC(year, month, day)).toISOString().slice(0, 10);
  const target = startOfLocalDay(timeZone, next) + minutes * 60_000;
  app().clock.advance(target - app().clock.now.getTime());
  return next;
}

/** The account's (or one campaign's) spend per local date straight from the sandbox's delivery model, in major units. */
function delivered(account: AdAccountRow, from: string, to: string, campaign?: string): Map<string, number> {
  const world = sandbox().sandbox.world;
  const now = sandbox().sandbox.now();
  const offset = currencyOffset(account.currency);
  const out = new Map<string, number>();
  for (const ad of world.accountAds(world.account(account.facebookAccountId)!)) {
    if (campaign && ad.campaignId !== campaign) continue;
    for (let date = from; date <= to; date = addDays(date, 1)) {
      const spend = sandbox().sandbox.delivery.adDay(ad, date, now)?.spend ?? 0;
      out.set(date, (out.get(date) ?? 0) + spend / offset);
    }
  }
  return out;
}

const total = (days: Map<string, number>, from: string, to: string) =>
  [...days].filter(([date]) => date >= from && date <= to).reduce((sum, [, spend]) => sum + spend, 0);

async function sync(session: Session, account: AdAccountRow) {
  const result = await app().modules.adAccounts.sync.sync(session.scope, account.id, { final: true });
  expect(result.status).toBe('synced');
}

async function entries(session: Session, codes: string[]) {
  return app().inspect((db) =>
    db
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.workspaceId, session.workspaceId),
          sql`${activityLogs.metadata}->>'code' in (${sql.join(
            codes.map((code) => sql`${code}`),
            sql`, `,
          )})`,
        ),
      ),
  );
}

/** What the notifier's scan finds due at once for the workspace: the entries it would mail. */
async function dueMails(session: Session): Promise<string[]> {
  const due = await app().database.system('test scan', (tx) =>
    new NotificationsRepository().scanDue(
      tx,
      { overlapSeconds: 0, lookbackSeconds: 3600, limit: 100 },
      session.workspaceId,
    ),
  );
  return due.filter((entry) => entry.toEmail).map((entry) => entry.id);
}

async function mailsOn(session: Session) {
  await markEmailVerified(app(), session.user.id);
  const response = await app().app.inject({
    method: 'PUT',
    url: '/api/notifications',
    headers: session.auth,
    payload: { emailErrors: true },
  });
  expect(response.statusCode, response.body).toBe(200);
}

describe('monthly budgets and pacing', () => {
  it('paces against the sandbox’s own spend, alerts ahead and behind once a month, and notifies at once', async () => {
    const today = advanceTo('Asia/Bangkok', 20, 12 * 60);
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    expect(account.timezone).toBe('Asia/Bangkok');
    await mailsOn(session);
    const first = `${today.slice(0, 8)}01`;
    const yesterday = addDays(today, -1);
    const days = delivered(account, addDays(today, -31), yesterday);
    const monthToDate = total(days, first, yesterday);
    const daysInMonth = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 0)).getUTCDate();
    const projected = monthToDate + (total(days, addDays(today, -7), yesterday) / 7) * (daysInMonth - 20 + 1);
    expect(monthToDate).toBeGreaterThan(0);

    const put = (payload: object) =>
      app().app.inject({
        method: 'PUT',
        url: `/api/ad-accounts/${account.id}/monthly-budgets`,
        headers: session.auth,
        payload,
      });
    // The account at 77 % of its projection: 130 % of the budget, ahead.
    const accountBudget = Math.round(projected / 1.3);
    const set = await put({ amount: accountBudget });
    expect(set.statusCode, set.body).toBe(200);
    const [row] = set.json().data;
    expect(row).toMatchObject({ campaign_id: null, amount: accountBudget, status: 'over', month: today.slice(0, 7) });
    expect(row.month_to_date).toBeCloseTo(monthToDate, 1);
    expect(row.projected).toBeCloseTo(projected, 1);

    // A campaign that spent 40 % of its budget by the 20th: behind.
    const world = sandbox().sandbox.world;
    const campaign = world
      .campaignsOf(world.account(account.facebookAccountId)!)
      .find((c) => total(delivered(account, first, yesterday, c.id), first, yesterday) > 0)!;
    const campaignSpent = total(delivered(account, first, yesterday, campaign.id), first, yesterday);
    const campaignBudget = Math.round((campaignSpent / 0.4) * 100) / 100;
    const both = await put({ campaign_id: campaign.id, amount: campaignBudget });
    expect(both.statusCode, both.body).toBe(200);
    const campaignRow = both.json().data.find((b: { campaign_id: string | null }) => b.campaign_id === campaign.id);
    expect(campaignRow).toMatchObject({ name: campaign.name, status: 'under' });
    expect(campaignRow.month_to_date).toBeCloseTo(campaignSpent, 1);

    await sync(session, account);
    await sync(session, account);
    app().clock.advance(3 * HOUR);
    await sync(session, account);
    const written = await entries(session, ['budget_pacing_over', 'budget_pacing_under']);
    expect(written.map((entry) => entry.metadata.code).sort()).toEqual(['budget_pacing_over', 'budget_pacing_under']);
    const over = written.find((entry) => entry.metadata.code === 'budget_pacing_over')!;
    expect(over).toMatchObject({ level: 'warning', adAccountId: account.id });
    expect(over.description).toContain(`of its monthly budget of`);
    expect((over.metadata.params as { projected: number }).projected).toBeCloseTo(projected, 1);
    expect((await dueMails(session)).sort()).toEqual(written.map((entry) => entry.id).sort());

    // The next month starts afresh: a budget still run over alerts again, once (synced every 10 days on the way).
    for (let step = 0; step < 3; step++) {
      app().clock.advance(10 * 24 * HOUR);
      await sync(session, account);
    }
    expect(localDate(account.timezone, app().clock.now.getTime()).slice(0, 7)).not.toBe(today.slice(0, 7));
    await sync(session, account);
    expect(await entries(session, ['budget_pacing_over'])).toHaveLength(2);
  }, 60_000);

  it('refuses a campaign the account does not hold, bad amounts, and a foreign account', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const url = `/api/ad-accounts/${account.id}/monthly-budgets`;
    const missing = await app().app.inject({
      method: 'PUT',
      url,
      headers: session.auth,
      payload: { campaign_id: '999999999', amount: 1000 },
    });
    expect(missing.statusCode).toBe(404);
    for (const payload of [{ amount: -5 }, { amount: 'lots' }, { campaign_id: 'x', amount: 5 }, { amount: 5, x: 1 }]) {
      const bad = await app().app.inject({ method: 'PUT', url, headers: session.auth, payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().success).toBe(false);
    }
    const intruder = await connectedUser(app());
    const foreign = await app().app.inject({ method: 'GET', url, headers: intruder.session.auth });
    expect(foreign.statusCode).toBe(404);
    const removed = await app().app.inject({ method: 'PUT', url, headers: session.auth, payload: { amount: 500 } });
    expect(removed.json().data).toHaveLength(1);
    const gone = await app().app.inject({ method: 'PUT', url, headers: session.auth, payload: { amount: null } });
    expect(gone.json().data).toEqual([]);
  }, 60_000);
});

/** Triples every daily budget of the account from `at` on, as a change made in Ads Manager would. */
function tripleBudgets(account: AdAccountRow, at: number) {
  const world = sandbox().sandbox.world;
  for (const campaign of world.campaignsOf(world.account(account.facebookAccountId)!)) {
    const holders = campaign.isCbo ? [campaign] : world.adSetsOf(campaign);
    for (const holder of holders) {
      const daily = [...holder.budgetLog].reverse().find((change) => change.at <= at)?.dailyBudget;
      if (daily !== undefined) sandbox().sandbox.recordMutation({ at, objectId: holder.id, dailyBudget: daily * 3 });
    }
  }
}

describe('anomaly watch', () => {
  it('an injected spend spike raises one entry and one notification per episode', async () => {
    const today = advanceTo('Asia/Bangkok', 10, 5);
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    await mailsOn(session);
    tripleBudgets(account, app().clock.now.getTime());
    app().clock.advance(12 * HOUR);
    await sync(session, account);
    await sync(session, account);
    app().clock.advance(HOUR);
    await sync(session, account);

    const jumps = await entries(session, ['anomaly_jump']);
    const spend = jumps.filter((entry) => entry.metadata.metric === 'spend');
    expect(spend).toHaveLength(1);
    expect(new Set(jumps.map((entry) => entry.metadata.metric)).size).toBe(jumps.length);
    // The figures as the sandbox delivered them: today by 12:05, the same weekday's mean at the same share of day.
    const params = spend[0]!.metadata.params as { current: number; baseline: number };
    const spent = delivered(account, addDays(today, -21), today);
    const share = (12 * 60 + 5) / 1440;
    const baseline = ([7, 14, 21].reduce((sum, back) => sum + (spent.get(addDays(today, -back)) ?? 0), 0) / 3) * share;
    expect(baseline).toBeGreaterThan(0);
    expect(params.baseline).toBeCloseTo(baseline, 0);
    expect(params.current).toBeGreaterThanOrEqual(params.baseline * 2);
    const due = await dueMails(session);
    expect(due).toContain(spend[0]!.id);
    expect(due.filter((id) => jumps.some((entry) => entry.id === id))).toHaveLength(jumps.length);
  }, 60_000);

  it('a muted account records the episode but writes and sends nothing', async () => {
    advanceTo('Asia/Bangkok', 10, 5);
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    await mailsOn(session);
    const mute = await app().app.inject({
      method: 'POST',
      url: `/api/ad-accounts/${account.id}/anomalies/mute`,
      headers: session.auth,
      payload: {},
    });
    expect(mute.statusCode, mute.body).toBe(200);
    expect(Date.parse(mute.json().data.muted_until)).toBe(app().clock.now.getTime() + 24 * HOUR);
    tripleBudgets(account, app().clock.now.getTime());
    app().clock.advance(12 * HOUR);
    await sync(session, account);
    expect(await entries(session, ['anomaly_jump', 'anomaly_drop'])).toEqual([]);
    // With mail on, as in the unmuted case: nothing is due to be sent either.
    expect(await dueMails(session)).toEqual([]);
    const episodes = await app().inspect((db) =>
      db.select().from(anomalyEpisodes).where(eq(anomalyEpisodes.adAccountId, account.id)),
    );
    expect(episodes.some((episode) => episode.metric === 'spend' && !episode.notified)).toBe(true);
  }, 60_000);
});
