import { nextLocalTime } from '@adpilot/contracts';
import { activityLogs, type AdAccountRow, type AdEntityRow } from '@adpilot/db';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildRule } from '../../../test/rule-factories.ts';
import {
  connectedUser,
  ledgerOf,
  mirrorEntities,
  rulesSandboxApp,
  thbAccount,
  writesTo,
} from '../../../test/rules-sandbox.ts';
import { signInAgain } from '../../../test/workspace-fixtures.ts';

const { app, sandbox, rules, createRule, runNow, latestRun } = rulesSandboxApp();
const HOUR = 3_600_000;

/** An active ad set whose name no other ad set's name contains: a rule's name filter picks it alone. */
async function loneAdset(account: AdAccountRow): Promise<AdEntityRow> {
  const adsets = await mirrorEntities(app(), account, 'adset');
  const lone = adsets.find(
    (adset) => adset.status === 'ACTIVE' && adsets.filter((other) => other.name.includes(adset.name)).length === 1,
  );
  if (!lone) throw new Error('no ad set with a unique name');
  return lone;
}

/** A rule on that one ad set whose condition always holds. */
function onAdset(account: AdAccountRow, adset: AdEntityRow, action: object, status: 'ACTIVE' | 'PAUSED') {
  return buildRule({
    scope: { adAccountIds: [account.id], level: 'adset', nameContains: adset.name, statuses: [status] },
    conditions: { match: 'all', items: [{ metric: 'spend', operator: 'gte', value: 0, window: 'last_7d' }] },
    actions: [action as never],
    safeguards: { cooldownHours: 24, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
    isActive: true,
  });
}

const statusWrites = (externalId: string, status: 'ACTIVE' | 'PAUSED') =>
  writesTo(sandbox(), externalId).filter((mutation) => mutation.status === status);

async function pausedWithHold(resumeAfter: object) {
  const { session, accounts } = await connectedUser(app());
  const account = thbAccount(accounts);
  const adset = await loneAdset(account);
  const rule = await createRule(session, onAdset(account, adset, { type: 'pause', resumeAfter }, 'ACTIVE'));
  const pausedAt = app().clock.now.getTime();
  await runNow(session, rule.id);
  expect(statusWrites(adset.externalId, 'PAUSED')).toHaveLength(1);
  const [pause] = (await ledgerOf(app(), rule.id)).filter((row) => row.actionType === 'pause');
  if (!pause) throw new Error('no pause');
  expect(pause.state).toBe('applied');
  const holds = (await rules(session, 'GET', `/${rule.id}/holds`)).json().data;
  expect(holds).toHaveLength(1);
  expect(holds[0]).toMatchObject({
    actionId: pause.id,
    status: 'scheduled',
    entity: { adAccountId: account.id, level: 'adset', externalId: adset.externalId, name: adset.name },
  });
  return { session, account, adset, rule, pause, pausedAt, resumeAt: Date.parse(holds[0].resumeAt) };
}

describe('timed holds on the sandbox', () => {
  it('resumes after the hours, not before, exactly once', async () => {
    const { session, adset, rule, pausedAt, resumeAt } = await pausedWithHold({ hours: 6 });
    expect(resumeAt).toBe(pausedAt + 6 * HOUR);

    app().clock.now = new Date(resumeAt - 60_000);
    expect(await app().modules.rules.holds.runDue()).toBe(0);
    expect(statusWrites(adset.externalId, 'ACTIVE')).toHaveLength(0);

    app().clock.now = new Date(resumeAt + 60_000);
    expect(await app().modules.rules.holds.runDue()).toBe(1);
    expect(statusWrites(adset.externalId, 'ACTIVE')).toHaveLength(1);
    // The job again, and a duplicated one: nothing more is written.
    await app().modules.rules.holds.runDue();
    const [resume] = (await ledgerOf(app(), rule.id)).filter((row) => row.actionType === 'resume');
    await app().modules.rules.holds.run({ workspaceId: session.workspaceId, id: resume?.id ?? '' });
    expect(statusWrites(adset.externalId, 'ACTIVE')).toHaveLength(1);

    const signedIn = await signInAgain(app(), session);
    const holds = (await rules(signedIn, 'GET', `/${rule.id}/holds`)).json().data;
    expect(holds[0]).toMatchObject({ status: 'resumed' });
    // The run history keeps to the run's own decisions: the pause.
    const runs = (await rules(signedIn, 'GET', `/${rule.id}/runs`)).json().data;
    expect(runs[0].actions.map((action: { type: string }) => action.type)).toEqual(['pause']);
    const log = await app().inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, session.workspaceId), eq(activityLogs.category, 'rule_action'))),
    );
    expect(log.map((entry) => (entry.metadata as { action: string }).action).sort()).toEqual(['pause', 'resume']);
  });

  it("resumes at the next local midnight of the account's time zone", async () => {
    const { account, adset, pausedAt, resumeAt } = await pausedWithHold({ atLocalTime: '00:00' });
    expect(account.timezone).toBe('Asia/Bangkok');
    // Midnight in Bangkok (UTC+7) is 17:00 UTC.
    expect(new Date(resumeAt).getUTCHours()).toBe(17);
    expect(new Date(resumeAt).getUTCMinutes()).toBe(0);
    expect(resumeAt).toBeGreaterThan(pausedAt);
    expect(resumeAt - pausedAt).toBeLessThanOrEqual(24 * HOUR);
    expect(resumeAt).toBe(nextLocalTime('Asia/Bangkok', '00:00', pausedAt));

    app().clock.now = new Date(resumeAt - 60_000);
    await app().modules.rules.holds.runDue();
    expect(statusWrites(adset.externalId, 'ACTIVE')).toHaveLength(0);
    app().clock.now = new Date(resumeAt);
    await app().modules.rules.holds.runDue();
    expect(statusWrites(adset.externalId, 'ACTIVE')).toHaveLength(1);
  });

  it('skips the resume, and logs it, once someone changed the status since the pause', async () => {
    const { session, adset, rule, resumeAt } = await pausedWithHold({ hours: 2 });
    // Someone resumes the ad set in Ads Manager, then the hold comes due.
    sandbox().sandbox.recordMutation({ at: sandbox().sandbox.now(), objectId: adset.externalId, status: 'ACTIVE' });
    app().clock.now = new Date(resumeAt + 60_000);
    await app().modules.rules.holds.runDue();
    // Only the person's write: the rule wrote nothing.
    expect(statusWrites(adset.externalId, 'ACTIVE')).toHaveLength(1);

    const [resume] = (await ledgerOf(app(), rule.id)).filter((row) => row.actionType === 'resume');
    expect(resume).toMatchObject({ state: 'skipped', error: { code: 'status_changed_since_pause' } });
    const holds = (await rules(await signInAgain(app(), session), 'GET', `/${rule.id}/holds`)).json().data;
    expect(holds[0]).toMatchObject({ status: 'skipped' });
    const log = await app().inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, session.workspaceId), eq(activityLogs.category, 'rule_action'))),
    );
    const skipped = log.find((entry) => (entry.metadata as { code: string }).code === 'rule_action_skipped');
    expect(skipped?.metadata).toMatchObject({
      action: 'resume',
      params: { action: 'resume', error: 'status_changed_since_pause' },
    });
    expect(skipped?.level).toBe('warning');
  });

  it('resumes now on request, once (409 after), signed by the person', async () => {
    const { session, adset, rule, pause } = await pausedWithHold({ hours: 48 });
    const resumed = await rules(session, 'POST', `/holds/${pause.id}/resume`);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().data.hold).toMatchObject({ actionId: pause.id, status: 'resumed' });
    expect(statusWrites(adset.externalId, 'ACTIVE')).toHaveLength(1);

    const again = await rules(session, 'POST', `/holds/${pause.id}/resume`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('HOLD_NOT_SCHEDULED');
    app().clock.advance(49 * HOUR);
    await app().modules.rules.holds.runDue();
    expect(statusWrites(adset.externalId, 'ACTIVE')).toHaveLength(1);

    const log = await app().inspect((db) =>
      db
        .select()
        .from(activityLogs)
        .where(and(eq(activityLogs.workspaceId, session.workspaceId), eq(activityLogs.category, 'rule_action'))),
    );
    const resume = log.find((entry) => (entry.metadata as { action: string }).action === 'resume');
    expect(resume?.actorUserId).toBe(session.user.id);
    const unknown = await rules(await signInAgain(app(), session), 'POST', `/holds/${rule.id}/resume`);
    expect(unknown.statusCode).toBe(404);
  });

  it('a reverted pause cancels its hold', async () => {
    const { session, adset, rule, pause, resumeAt } = await pausedWithHold({ hours: 3 });
    expect((await rules(session, 'POST', `/actions/${pause.id}/revert`)).statusCode).toBe(200);
    expect(statusWrites(adset.externalId, 'ACTIVE')).toHaveLength(1);
    app().clock.now = new Date(resumeAt + 60_000);
    await app().modules.rules.holds.runDue();
    expect(statusWrites(adset.externalId, 'ACTIVE')).toHaveLength(1);
    const holds = (await rules(await signInAgain(app(), session), 'GET', `/${rule.id}/holds`)).json().data;
    expect(holds[0]).toMatchObject({ status: 'cancelled' });
  });
});

describe('opposite rules at run time', () => {
  it('do not undo each other within the first one’s cooldown: the second is skipped naming the first', async () => {
    const { session, accounts } = await connectedUser(app());
    const account = thbAccount(accounts);
    const adset = await loneAdset(account);
    const pauser = await createRule(session, onAdset(account, adset, { type: 'pause' }, 'ACTIVE'));
    await runNow(session, pauser.id);
    expect(statusWrites(adset.externalId, 'PAUSED')).toHaveLength(1);

    const body = onAdset(account, adset, { type: 'resume' }, 'PAUSED');
    // Saving and previewing both warn of the overlap.
    const preview = (await rules(session, 'POST', '/preview', body)).json().data;
    expect(preview.warnings).toContainEqual(
      expect.objectContaining({ code: 'conflicting_rule', params: expect.objectContaining({ ruleId: pauser.id }) }),
    );
    const skip = { code: 'conflicting_rule', params: expect.objectContaining({ ruleId: pauser.id, hours: 24 }) };
    const planned = preview.entities.flatMap((entity: { actions: object[] }) => entity.actions);
    expect(planned).toContainEqual(expect.objectContaining({ outcome: 'skipped', skip }));
    const resumer = await createRule(session, body);

    await runNow(session, resumer.id);
    const run = await latestRun(session, resumer.id);
    expect(run.actions).toHaveLength(0);
    expect(run.skipped).toEqual([expect.objectContaining({ type: 'resume', skip })]);
    expect(statusWrites(adset.externalId, 'ACTIVE')).toHaveLength(0);

    // Past the first rule's cooldown, the second acts.
    app().clock.advance(25 * HOUR);
    const again = await signInAgain(app(), session);
    await runNow(again, resumer.id);
    const later = await latestRun(again, resumer.id);
    expect(later.actions).toEqual([expect.objectContaining({ type: 'resume', status: 'applied' })]);
    expect(statusWrites(adset.externalId, 'ACTIVE')).toHaveLength(1);
  });
});
