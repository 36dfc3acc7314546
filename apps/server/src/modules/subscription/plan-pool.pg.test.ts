import type { PlanId } from '@adpilot/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRule } from '../../test/rule-factories.ts';
import { createTestApp, registerOnPlan, registerUser, type TestApp } from '../../test/test-app.ts';
import {
  acceptWith,
  createWorkspace,
  invitationTokenFor,
  inviteTo,
  joinAs,
  putOnPlan,
} from '../../test/workspace-fixtures.ts';

/**
 * A plan is its payer's and covers every workspace they own (ADR 0110): an agency on Pro with three client
 * workspaces shares one plan's limits across the four, counted exactly under parallel requests; clients look for
 * free (viewers take no seat) and seats are counted again at acceptance (ADR 0111).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Session = Awaited<ReturnType<typeof registerUser>>;

const inWorkspace = (session: Session, workspaceId: string) => ({
  ...session.auth,
  'x-workspace-id': workspaceId,
});

const current = async (session: Session, workspaceId = session.workspaceId) => {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/subscription/current',
    headers: inWorkspace(session, workspaceId),
  });
  expect(response.statusCode).toBe(200);
  return response.json().data;
};

/** An owner on `plan` with three client workspaces: [personal, ...clients]. */
async function agencyOn(plan: PlanId) {
  const owner = await registerOnPlan(t.app, plan);
  const clients = [
    await createWorkspace(t, owner, 'Client A'),
    await createWorkspace(t, owner, 'Client B'),
    await createWorkspace(t, owner, 'Client C'),
  ];
  return { owner, clients, all: [owner.workspaceId, ...clients] };
}

const activeRulesIn = async (workspaceIds: string[]) => {
  const result = (await t.inspect((db) =>
    db.execute(sql`select count(*)::int as n from automation_rules
      where is_active and workspace_id in (${sql.join(
        workspaceIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`),
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0]?.n ?? 0;
};

describe('one plan across the payer’s workspaces', () => {
  it('puts a new workspace on its owner’s plan, and shows the pool with each workspace’s use', async () => {
    const { owner, clients, all } = await agencyOn('pro');
    for (const id of clients) {
      const seen = await current(owner, id);
      expect(seen).toMatchObject({ plan: 'pro', paidByYou: true, rulesLimit: 25 });
      expect(seen.pool.limits).toEqual({ adAccounts: 5, activeRules: 25, aiRequests: 500, seats: 3 });
      expect(seen.workspaces.map((w: { id: string }) => w.id)).toEqual(all);
    }
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rules',
      headers: inWorkspace(owner, clients[1] ?? ''),
      payload: buildRule({ isActive: true }),
    });
    expect(created.statusCode).toBe(201);
    const seen = await current(owner);
    expect(seen.pool.used).toMatchObject({ activeRules: 1, seats: 1 });
    expect(seen.workspaces.map((w: { used: { activeRules: number } }) => w.used.activeRules)).toEqual([0, 0, 1, 0]);
  });

  it(
    'counts active rules across the four workspaces: exactly 25 of 28 parallel activations on Pro',
    { timeout: 120_000 },
    async () => {
      const { owner, all } = await agencyOn('pro');
      const answers = await Promise.all(
        all.flatMap((id) =>
          Array.from({ length: 7 }, () =>
            t.app.inject({
              method: 'POST',
              url: '/api/rules',
              headers: inWorkspace(owner, id),
              payload: buildRule({ isActive: true }),
            }),
          ),
        ),
      );
      const codes = answers.map((a) => a.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(25);
      expect(codes.filter((c) => c === 403)).toHaveLength(3);
      for (const refused of answers.filter((a) => a.statusCode === 403)) {
        expect(refused.json()).toMatchObject({ code: 'PLAN_LIMIT_REACHED', params: { plan: 'pro', limit: 25 } });
      }
      expect(await activeRulesIn(all)).toBe(25);
      expect((await current(owner, all[3])).rulesUsed).toBe(25);
    },
  );

  it('counts AI requests across the workspaces: the last 10 of Pro’s 500 to exactly 10 of 16 parallel takes', async () => {
    const { owner, all } = await agencyOn('pro');
    // 490 taken already this month, spread over the workspaces (the pooled count on the plan's row and each own).
    for (const id of all) {
      for (let n = 0; n < 2; n += 1)
        await t.modules.subscription.limits.takeAiRequest({ workspaceId: id, userId: owner.user.id });
    }
    const { period } = await t.modules.subscription.limits.state(owner.scope);
    await t.inspect((db) =>
      db.execute(sql`update usage_counters set pooled_ai_requests = 490
        where workspace_id = ${owner.workspaceId} and period_start = ${period.start.toISOString()}`),
    );
    const takes = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) =>
        t.modules.subscription.limits.takeAiRequest({ workspaceId: all[i % all.length] ?? '', userId: owner.user.id }),
      ),
    );
    expect(takes.filter((take) => take.status === 'fulfilled')).toHaveLength(10);
    const refused = takes.flatMap((take) => (take.status === 'rejected' ? [take.reason as { code: string }] : []));
    expect(refused).toHaveLength(6);
    expect(refused.every((error) => error.code === 'AI_REQUEST_LIMIT_REACHED')).toBe(true);
    const seen = await current(owner, all[2]);
    expect(seen.aiRequestsUsed).toBe(500);
    // Each workspace's own count: its 2 earlier takes and its share of the 10.
    const each = seen.workspaces.map((w: { used: { aiRequests: number } }) => w.used.aiRequests);
    expect(each.reduce((a: number, b: number) => a + b, 0)).toBe(8 + 10);
    expect(Math.min(...each)).toBeGreaterThanOrEqual(2);
  });

  it('a free person’s second workspace adds no AI requests: 30 across all, not 30 each', async () => {
    const person = await registerUser(t.app);
    const second = await createWorkspace(t, person, 'Side project');
    const takes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        t.modules.subscription.limits.takeAiRequest({
          workspaceId: i % 2 ? second : person.workspaceId,
          userId: person.user.id,
        }),
      ),
    );
    expect(takes.filter((take) => take.status === 'fulfilled')).toHaveLength(30);
  });

  it('a downgrade switches off the rules beyond the pooled limit, the payer’s own workspace keeping its first', async () => {
    const { owner, all } = await agencyOn('pro');
    for (const id of all) {
      for (let i = 0; i < 2; i += 1) {
        const answer = await t.app.inject({
          method: 'POST',
          url: '/api/rules',
          headers: inWorkspace(owner, id),
          payload: buildRule({ isActive: true, schedule: { everyMinutes: 60 } }),
        });
        expect(answer.statusCode).toBe(201);
      }
    }
    const down = await t.app.inject({
      method: 'POST',
      url: '/api/subscription/upgrade',
      headers: owner.auth,
      payload: { planId: 'free' },
    });
    expect(down.statusCode).toBe(200);
    expect(await activeRulesIn(all)).toBe(3);
    expect(await activeRulesIn([owner.workspaceId])).toBe(2);
    expect(await activeRulesIn([all[1] ?? ''])).toBe(1);
    expect(
      down.json().data.subscription.workspaces.map((w: { used: { activeRules: number } }) => w.used.activeRules),
    ).toEqual([2, 1, 0, 0]);
  });

  it('lets only the payer change the plan; another owner of a client workspace sees whose it is', async () => {
    const { owner, clients } = await agencyOn('pro');
    const partner = await joinAs(t, owner, clients[0] ?? '', 'owner');
    const seen = await current(partner, clients[0]);
    expect(seen).toMatchObject({ plan: 'pro', paidByYou: false });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/subscription/upgrade',
      headers: inWorkspace(partner, clients[0] ?? ''),
      payload: { planId: 'business' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'PLAN_NOT_PAYER' });
    // Their own personal workspace is on their own (free) plan.
    expect(await current(partner)).toMatchObject({ plan: 'free', paidByYou: true });
  });
});

describe('seats across the payer’s workspaces', () => {
  it('invites a viewer into each client workspace without a seat, and seats editors across them exactly', async () => {
    const { owner, clients } = await agencyOn('pro');
    for (const [i, id] of clients.entries()) {
      const client = `client-${i}-${Date.now()}@example.com`;
      expect((await inviteTo(t, owner, id, client, 'viewer')).statusCode).toBe(201);
    }
    // Pro: three seats, the owner's and two more, across all four workspaces.
    const answers = await Promise.all(
      clients.flatMap((id, i) =>
        [0, 1].map((j) => inviteTo(t, owner, id, `editor-${i}-${j}-${Date.now()}@example.com`, 'editor')),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 403, 403, 403, 403]);
    expect(answers.find((a) => a.statusCode === 403)?.json()).toMatchObject({
      code: 'SEAT_LIMIT_REACHED',
      params: { plan: 'pro', limit: 3 },
    });
    const seen = await current(owner);
    expect(seen.pool.used.seats).toBe(3);
    // The same person in a second workspace needs no second seat.
    const invited = answers.findIndex((a) => a.statusCode === 201);
    const email = (answers[invited]?.json() as { data: { email: string } }).data.email;
    const other = clients.find((id) => id !== clients[Math.floor(invited / 2)]) ?? '';
    expect((await inviteTo(t, owner, other, email, 'admin')).statusCode).toBe(201);
  });

  it('counts seats at acceptance: six invitations made on Business, accepted in parallel after a downgrade to Pro', async () => {
    const { owner, clients } = await agencyOn('business');
    const people = await Promise.all(Array.from({ length: 6 }, () => registerUser(t.app)));
    for (const [i, person] of people.entries()) {
      const answer = await inviteTo(t, owner, clients[i % 3] ?? '', person.user.email, 'editor');
      expect(answer.statusCode).toBe(201);
    }
    await putOnPlan(t, owner.workspaceId, 'pro');
    const accepts = await Promise.all(
      people.map((person) => acceptWith(t, person, invitationTokenFor(t, person.user.email))),
    );
    expect(accepts.map((a) => a.statusCode).sort()).toEqual([200, 200, 403, 403, 403, 403]);
    expect(accepts.find((a) => a.statusCode === 403)?.json()).toMatchObject({
      code: 'SEAT_LIMIT_REACHED',
      params: { plan: 'pro', limit: 3 },
    });
    const members = (await t.inspect((db) =>
      db.execute(sql`select count(distinct user_id)::int as n from workspace_members
        where role <> 'viewer' and workspace_id in (${sql.join(
          [owner.workspaceId, ...clients].map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`),
    )) as unknown as { rows: { n: number }[] };
    expect(members.rows[0]?.n).toBe(3);
  });

  it('a viewer made editor takes a seat, refused when none is left', async () => {
    const owner = await registerUser(t.app);
    const client = await createWorkspace(t, owner, 'Client');
    const viewer = await joinAs(t, owner, client, 'viewer');
    const promote = await t.app.inject({
      method: 'PATCH',
      url: `/api/workspaces/${client}/members/${viewer.user.id}`,
      headers: owner.auth,
      payload: { role: 'editor' },
    });
    expect(promote.statusCode).toBe(403);
    expect(promote.json()).toMatchObject({ code: 'SEAT_LIMIT_REACHED', params: { plan: 'free', limit: 1 } });
  });
});
