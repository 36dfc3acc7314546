import { workspaceMembers } from '@adpilot/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLineFake, type RunningLineFake } from '../../../test/line-fake.ts';
import { buildRule } from '../../../test/rule-factories.ts';
import { connectedUser, mirrorEntities, writesTo, type Session } from '../../../test/rules-sandbox.ts';
import { createSandboxTestApp, registerUser, type SandboxTestApp } from '../../../test/test-app.ts';

/**
 * The approve and reject links of a proposal (ADR 0073), end to end: an approve-mode rule proposes a pause, the
 * proposal is pushed to the member's LINE with its links, and the link approves it once — reading it changes nothing.
 */
const TOKEN = 'line-channel-token-for-links';
const TARGET = `U${'a1'.repeat(16)}`;

let t: SandboxTestApp;
let line: RunningLineFake;
beforeAll(async () => {
  line = await startLineFake({ tokens: [TOKEN] });
  t = await createSandboxTestApp({ LINE_API_URL: line.url }, { jobQueue: { pollingIntervalSeconds: 0.5 } });
  await t.ctx.jobs.start({ work: true });
}, 60_000);
afterAll(async () => {
  await t.ctx.jobs.stop();
  await t.close();
  await line.close();
}, 60_000);

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** An approve-mode rule proposing to pause one active ad; its run done in line, as a worker would. */
async function proposePause(session: Session, accountId: string) {
  const account = { id: accountId } as Parameters<typeof mirrorEntities>[1];
  const ads = await mirrorEntities(t, account, 'ad');
  const ad = ads.find(
    (row) => row.status === 'ACTIVE' && ads.filter((other) => other.name.includes(row.name)).length === 1,
  );
  if (!ad) throw new Error('no active ad with a name of its own');
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/rules',
    headers: session.auth,
    payload: buildRule({
      scope: { adAccountIds: [accountId], level: 'ad', statuses: ['ACTIVE'], nameContains: ad.name },
      conditions: { match: 'all', items: [{ metric: 'impressions', operator: 'gte', value: 0, window: 'last_7d' }] },
      actions: [{ type: 'pause' }],
      safeguards: { cooldownHours: 0, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
      mode: 'approve',
    }),
  });
  expect(created.statusCode).toBe(201);
  const ruleId: string = created.json().data.id;
  await t.modules.rules.runner.run({
    workspaceId: session.workspaceId,
    ruleId,
    slot: `manual:${ruleId}`,
    trigger: 'manual',
  });
  return ad;
}

const link = (token: string, method: 'GET' | 'POST') =>
  t.app.inject({ method, url: `/api/proposal-links/${token}`, ...(method === 'POST' ? { payload: {} } : {}) });

describe('a proposal’s links in a LINE push', () => {
  it('reach the member, open without changing anything, approve once, and are refused after', async () => {
    const { session, accounts } = await connectedUser(t);
    const account = accounts.find((row) => row.currency === 'THB') ?? accounts[0]!;
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/notifications',
      headers: session.auth,
      payload: { lineToken: TOKEN, lineTarget: TARGET, line: true },
    });
    expect(saved.statusCode).toBe(200);

    const ad = await proposePause(session, account.id);
    const push = await waitFor(() => line.pushes.find((p) => p.to === TARGET && p.texts.join().includes('decide')));
    const text = push.texts.join('\n');
    const approve = /Approve this change: \S+\/proposals\/decide\?token=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(
      text,
    )?.[1];
    const reject = /Reject it: \S+\/proposals\/decide\?token=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(text)?.[1];
    expect(approve).toBeDefined();
    expect(reject).toBeDefined();

    // Opening the link shows the proposal and changes nothing, signed out.
    const preview = await link(approve!, 'GET');
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toMatchObject({ decision: 'approve', proposal: { status: 'pending' } });
    expect(writesTo(t.sandbox, ad.externalId)).toEqual([]);

    // A link changed by one character is no link.
    const forged = `${approve!.slice(0, -1)}${approve!.endsWith('A') ? 'B' : 'A'}`;
    expect((await link(forged, 'POST')).statusCode).toBe(404);

    // Two uses at once: one approval, one write; then the link and its sibling are refused as closed.
    const [first, second] = await Promise.all([link(approve!, 'POST'), link(approve!, 'POST')]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    expect(writesTo(t.sandbox, ad.externalId)).toEqual([expect.objectContaining({ status: 'PAUSED' })]);
    const again = await link(approve!, 'POST');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'PROPOSAL_CLOSED' });
    expect((await link(reject!, 'POST')).statusCode).toBe(409);
    expect(writesTo(t.sandbox, ad.externalId)).toHaveLength(1);
  }, 120_000);

  it('sends no links to a viewer, and a link stops working for a member no longer allowed to decide', async () => {
    const { session, accounts } = await connectedUser(t);
    const account = accounts.find((row) => row.currency === 'THB') ?? accounts[0]!;
    const viewer = await registerUser(t.app);
    await t.inspect((db) =>
      db.insert(workspaceMembers).values({ workspaceId: session.workspaceId, userId: viewer.user.id, role: 'editor' }),
    );
    const viewerTarget = `U${'b2'.repeat(16)}`;
    for (const [who, target] of [
      [session, TARGET],
      [viewer, viewerTarget],
    ] as const) {
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/notifications',
        headers: who.auth,
        payload: { lineToken: TOKEN, lineTarget: target, line: true },
      });
      expect(put.statusCode, put.body).toBe(200);
    }
    const before = line.pushes.length;
    await proposePause(session, account.id);
    const editorPush = await waitFor(() => {
      return line.pushes.slice(before).find((p) => p.to === viewerTarget && p.texts.join().includes('decide'));
    });
    const token = /token=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(editorPush.texts.join('\n'))?.[1];
    expect(token).toBeDefined();

    // Demoted to viewer: the link the member holds no longer decides, nor even shows the proposal.
    await t.inspect((db) =>
      db
        .update(workspaceMembers)
        .set({ role: 'viewer' })
        .where(and(eq(workspaceMembers.workspaceId, session.workspaceId), eq(workspaceMembers.userId, viewer.user.id))),
    );
    await t.modules.auth.service.sessionsSettled();
    await waitFor(async () => ((await link(token!, 'POST')).statusCode === 403 ? true : undefined), 10_000);

    // A new proposal reaches the viewer without links, and the owner with them.
    const next = line.pushes.length;
    await proposePause(session, account.id);
    await waitFor(() => (line.pushes.slice(next).some((p) => p.to === TARGET) ? true : undefined));
    const viewerPushes = await waitFor(() => {
      const found = line.pushes.slice(next).filter((p) => p.to === viewerTarget);
      return found.length > 0 ? found : undefined;
    });
    expect(viewerPushes.every((p) => !p.texts.join().includes('decide'))).toBe(true);
  }, 120_000);
});
