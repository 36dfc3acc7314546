import type { PlanId } from '@adpilot/contracts';
import { automationRules, subscriptions } from '@adpilot/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRule } from '../../../test/rule-factories.ts';
import { createTestApp, registerOnPlan, type registerUser, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Session = Awaited<ReturnType<typeof registerUser>>;

const onPlan = (planId: PlanId): Promise<Session> => registerOnPlan(t.app, planId);

/** An active rule whose stored schedule is `everyMinutes`, written behind the API's back (an older row, say). */
async function ruleRunningEvery(session: Session, everyMinutes: number): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/rules',
    headers: session.auth,
    payload: buildRule({ isActive: true, schedule: { everyMinutes: 60 } }),
  });
  expect(response.statusCode).toBe(201);
  const id = response.json().data.id as string;
  await t.inspect((db) =>
    db
      .update(automationRules)
      .set({
        definition: sql`jsonb_set(${automationRules.definition}, '{schedule}', ${JSON.stringify({ everyMinutes })}::jsonb)`,
      })
      .where(eq(automationRules.id, id)),
  );
  return id;
}

/** The slots the tick would enqueue for one rule at `now`. */
async function slotsOf(ruleId: string, now: Date): Promise<string[]> {
  return (await t.modules.rules.tick.due(now)).filter((run) => run.ruleId === ruleId).map((run) => run.slot);
}

const window = (minutes: number, now: Date) => `m${minutes}:${Math.floor(now.getTime() / (minutes * 60_000))}`;

describe('the scheduler never runs a rule more often than its plan allows (ADR 0053)', () => {
  it('keeps a row written faster than the plan to the plan’s fastest check', async () => {
    const session = await onPlan('free');
    const ruleId = await ruleRunningEvery(session, 5);
    const now = new Date('2026-11-22T10:07:00.000Z');
    expect(await slotsOf(ruleId, now)).toEqual([window(60, now)]);
  });

  it('runs a rule as often as it says when the plan allows it', async () => {
    const session = await onPlan('enterprise');
    const ruleId = await ruleRunningEvery(session, 5);
    const now = new Date('2026-11-22T10:07:00.000Z');
    expect(await slotsOf(ruleId, now)).toEqual([window(5, now)]);
  });

  it('follows a plan that lapsed after a failed payment, with no event to slow the rows', async () => {
    const session = await onPlan('pro');
    const ruleId = await ruleRunningEvery(session, 15);
    const periodEnd = new Date('2026-11-22T12:00:00.000Z');
    await t.inspect((db) =>
      db
        .update(subscriptions)
        .set({ status: 'past_due', currentPeriodEnd: periodEnd })
        .where(eq(subscriptions.workspaceId, session.workspaceId)),
    );
    const before = new Date(periodEnd.getTime() - 60 * 60_000);
    const after = new Date(periodEnd.getTime() + 60 * 60_000);
    expect(await slotsOf(ruleId, before)).toEqual([window(15, before)]);
    expect(await slotsOf(ruleId, after)).toEqual([window(60, after)]);
  });

  it('treats a user without a subscription row as on the free plan', async () => {
    const session = await onPlan('free');
    const ruleId = await ruleRunningEvery(session, 15);
    await t.inspect((db) => db.delete(subscriptions).where(eq(subscriptions.workspaceId, session.workspaceId)));
    const now = new Date('2026-11-22T10:37:00.000Z');
    expect(await slotsOf(ruleId, now)).toEqual([window(60, now)]);
  });
});
