import { WORKSPACE_HEADER, type CreateRuleRequest, type Proposal } from '@adpilot/contracts';
import { activityLogs, ruleActions, workspaceMembers, type AdAccountRow } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildRule } from '../../../test/rule-factories.ts';
import {
  connectedUser,
  editInAdsManager,
  ledgerOf,
  mirrorEntities,
  rulesSandboxApp,
  thbAccount,
  writesTo,
  type Session,
  signedInLater,
} from '../../../test/rules-sandbox.ts';
import { registerUser } from '../../../test/test-app.ts';

const { app, sandbox, rules, createRule, drain, runNow } = rulesSandboxApp();

const HOUR = 3_600_000;

/** A rule that pauses one active ad of the account (every ad judged matches: impressions ≥ 0). */
async function pauseOneAd(session: Session, account: AdAccountRow, overrides: Partial<CreateRuleRequest> = {}) {
  const ads = await mirrorEntities(app(), account, 'ad');
  // An active ad whose name no other ad's contains: the name filter picks it alone.
  const ad = ads.find(
    (row) => row.status === 'ACTIVE' && ads.filter((other) => other.name.includes(row.name)).length === 1,
  );
  if (!ad) throw new Error('no active ad with a name of its own');
  const rule = await createRule(
    session,
    buildRule({
      scope: { adAccountIds: [account.id], level: 'ad', statuses: ['ACTIVE'], nameContains: ad.name },
      conditions: { match: 'all', items: [{ metric: 'impressions', operator: 'gte', value: 0, window: 'last_7d' }] },
      actions: [{ type: 'pause' }],
      safeguards: { cooldownHours: 0, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
      mode: 'approve',
      ...overrides,
    }),
  );
  return { ad, rule };
}

const proposals = (session: Session, method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) =>
  app().app.inject({ method, url: `/api/proposals${url}`, headers: { ...session.auth, ...headers } });

async function pending(session: Session): Promise<Proposal[]> {
  const response = await proposals(session, 'GET', '?status=pending');
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

async function codes(workspaceId: string): Promise<string[]> {
  const rows = await app().inspect((db) =>
    db.select().from(activityLogs).where(eq(activityLogs.workspaceId, workspaceId)),
  );
  return rows.map((row) => String(row.metadata.code));
}

/** Moves the clock and signs in again (the access token lives 15 minutes). */
const later = (session: Session, ms: number) => signedInLater(app(), session, ms);

/** A proposal waiting on one ad: nothing written yet. */
async function proposed(overrides: Partial<CreateRuleRequest> = {}) {
  const { session, accounts } = await connectedUser(app());
  const account = thbAccount(accounts);
  const { ad, rule } = await pauseOneAd(session, account, overrides);
  const runId = await runNow(session, rule.id);
  const [proposal] = await pending(session);
  if (!proposal) throw new Error('no proposal');
  return { session, account, ad, rule, runId, proposal };
}

describe('approve mode', () => {
  it('a run proposes each planned change and writes nothing to Meta', async () => {
    const { session, ad, rule, runId, proposal } = await proposed();
    expect(sandbox().sandbox.mutations).toEqual([]);
    expect(proposal).toMatchObject({
      ruleId: rule.id,
      runId,
      entity: { externalId: ad.externalId, level: 'ad' },
      action: 'pause',
      field: 'status',
      from: 'ACTIVE',
      to: 'PAUSED',
      status: 'pending',
    });
    expect(Date.parse(proposal.expiresAt)).toBeGreaterThan(app().clock.now.getTime() + 23 * HOUR);
    expect(Date.parse(proposal.expiresAt)).toBeLessThanOrEqual(app().clock.now.getTime() + 24 * HOUR);
    expect(await codes(session.workspaceId)).toContain('rule_action_proposed');
    const runs = (await rules(session, 'GET', `/${rule.id}/runs`)).json().data;
    expect(runs[0]).toMatchObject({ status: 'completed' });
    expect(runs[0].actions[0]).toMatchObject({ status: 'proposed' });
  });

  it('approving writes the change once, signed by the approver; a second approval is refused', async () => {
    const { session, ad, proposal } = await proposed();
    const approved = await proposals(session, 'POST', `/${proposal.id}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data).toMatchObject({
      proposal: { id: proposal.id, status: 'approved' },
      action: { id: proposal.id, status: 'applied', change: { from: 'ACTIVE', to: 'PAUSED' } },
    });
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(1);
    const again = await proposals(session, 'POST', `/${proposal.id}/approve`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('PROPOSAL_CLOSED');
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(1);

    const entries = await app().inspect((db) =>
      db.select().from(activityLogs).where(eq(activityLogs.workspaceId, session.workspaceId)),
    );
    const approval = entries.find((row) => row.metadata.code === 'rule_proposal_approved');
    expect(approval?.actorUserId).toBe(session.user.id);
    expect(entries.some((row) => row.metadata.code === 'rule_action_applied')).toBe(true);
  });

  it('two approvals at the same moment write once', async () => {
    const { session, ad, proposal } = await proposed();
    const answers = await Promise.all([
      proposals(session, 'POST', `/${proposal.id}/approve`),
      proposals(session, 'POST', `/${proposal.id}/approve`),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(1);
    const ledger = await ledgerOf(app(), proposal.ruleId ?? '');
    expect(ledger.map((row) => [row.state, row.proposal])).toEqual([['applied', 'approved']]);
  });

  it('a change at Meta since the proposal makes it stale: 409 from what to what, closed, nothing written', async () => {
    const { session, account, ad, proposal } = await proposed();
    // Someone paused the ad on the sandbox's Ads Manager page after the rule proposed it.
    await editInAdsManager(sandbox(), session, {
      act: account.facebookAccountId,
      id: ad.externalId,
      status: 'PAUSED',
    });
    const refused = await proposals(session, 'POST', `/${proposal.id}/approve`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'PROPOSAL_STALE', params: { from: 'ACTIVE', to: 'PAUSED' } });
    expect(refused.json().message).toContain('from ACTIVE to PAUSED');
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(1);
    const stale = (await proposals(session, 'GET', '?status=stale')).json().data;
    expect(stale.map((row: Proposal) => row.id)).toEqual([proposal.id]);
    expect(await pending(session)).toEqual([]);
    const closed = await proposals(session, 'POST', `/${proposal.id}/approve`);
    expect(closed.json().code).toBe('PROPOSAL_CLOSED');
    expect(await codes(session.workspaceId)).toContain('rule_proposal_stale');
  });

  it('a proposal expires after the rule’s approval hours (read lazily, and by the periodic job)', async () => {
    const first = await proposed({ approvalHours: 2 });
    const { proposal } = first;
    let session = await later(first.session, HOUR);
    expect((await pending(session)).map((row) => row.id)).toEqual([proposal.id]);
    session = await later(session, HOUR + 1000);
    expect(await app().modules.rules.expiry.expireDue(app().clock.now)).toBe(1);
    expect(await pending(session)).toEqual([]);
    const expired = (await proposals(session, 'GET', '?status=expired')).json().data;
    expect(expired.map((row: Proposal) => row.id)).toEqual([proposal.id]);
    const late = await proposals(session, 'POST', `/${proposal.id}/approve`);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('PROPOSAL_CLOSED');
    expect(sandbox().sandbox.mutations).toEqual([]);
    expect(await codes(session.workspaceId)).toContain('rule_proposal_expired');
  });

  it('an approval a crash left unwritten is written once by its run, resumed by the periodic job', async () => {
    const { session, ad, proposal } = await proposed();
    // The approval's decision committed, then the process died before the write.
    await app().inspect((db) =>
      db
        .update(ruleActions)
        .set({ proposal: 'approved', state: 'planned', decidedAt: app().clock.now })
        .where(eq(ruleActions.id, proposal.id)),
    );
    expect(await app().modules.rules.expiry.resumeStranded(app().clock.now)).toBe(0);
    await later(session, 6 * 60_000);
    expect(await app().modules.rules.expiry.resumeStranded(app().clock.now)).toBe(1);
    await drain();
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(1);
    const [row] = await ledgerOf(app(), proposal.ruleId ?? '');
    expect(row).toMatchObject({ state: 'applied', proposal: 'approved' });
    expect(await app().modules.rules.expiry.resumeStranded(app().clock.now)).toBe(0);
  });

  it('a pending proposal past its time is closed when it is next read, without the job', async () => {
    const first = await proposed({ approvalHours: 1 });
    const { proposal } = first;
    const session = await later(first.session, HOUR + 1000);
    const late = await proposals(session, 'POST', `/${proposal.id}/approve`);
    expect(late.json().code).toBe('PROPOSAL_CLOSED');
    expect(sandbox().sandbox.mutations).toEqual([]);
  });

  it('the next run does not propose again what still waits for the same entity and action', async () => {
    const { session, rule, proposal } = await proposed();
    await runNow(session, rule.id);
    expect((await pending(session)).map((row) => row.id)).toEqual([proposal.id]);
    expect(await ledgerOf(app(), rule.id)).toHaveLength(1);
  });

  it('reject closes the proposal without a write; approve-all approves the rest of a run', async () => {
    const { session, proposal, runId, ad } = await proposed();
    const rejected = await proposals(session, 'POST', `/${proposal.id}/reject`);
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().data).toMatchObject({ status: 'rejected' });
    expect((await proposals(session, 'POST', `/${proposal.id}/reject`)).json().code).toBe('PROPOSAL_CLOSED');
    const all = await rules(session, 'POST', `/runs/${runId}/approve-all`);
    expect(all.statusCode).toBe(200);
    expect(all.json().data).toEqual({ approved: [], refused: [] });
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(0);
    expect(await codes(session.workspaceId)).toContain('rule_proposal_rejected');
    // The history names who decided, from their account, and when.
    const history = (await proposals(session, 'GET', '?status=rejected')).json().data;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      id: proposal.id,
      status: 'rejected',
      decidedBy: { id: session.user.id, name: session.user.name },
    });
    expect(Date.parse(history[0].decidedAt)).toBe(app().clock.now.getTime());
  });

  it('approve-all writes every pending proposal of the run', async () => {
    const { session, runId, ad } = await proposed();
    const all = await rules(session, 'POST', `/runs/${runId}/approve-all`);
    expect(all.statusCode).toBe(200);
    expect(all.json().data.approved).toHaveLength(1);
    expect(all.json().data.approved[0]).toMatchObject({ status: 'applied' });
    expect(writesTo(sandbox(), ad.externalId)).toHaveLength(1);
  });

  it('a viewer reads the proposals but may not decide them; another workspace finds none of them', async () => {
    const { session, proposal, runId } = await proposed();
    const viewer = await registerUser(app().app);
    await app().inspect((db) =>
      db.insert(workspaceMembers).values({ workspaceId: session.workspaceId, userId: viewer.user.id, role: 'viewer' }),
    );
    const inWorkspace = { [WORKSPACE_HEADER]: session.workspaceId };
    const read = await proposals(viewer, 'GET', '', inWorkspace);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.map((row: Proposal) => row.id)).toEqual([proposal.id]);
    for (const url of [`/${proposal.id}/approve`, `/${proposal.id}/reject`])
      expect((await proposals(viewer, 'POST', url, inWorkspace)).statusCode).toBe(403);
    const all = await app().app.inject({
      method: 'POST',
      url: `/api/rules/runs/${runId}/approve-all`,
      headers: { ...viewer.auth, ...inWorkspace },
    });
    expect(all.statusCode).toBe(403);

    const stranger = await registerUser(app().app);
    expect((await proposals(stranger, 'GET', '')).json().data).toEqual([]);
    for (const url of [`/${proposal.id}/approve`, `/${proposal.id}/reject`])
      expect((await proposals(stranger, 'POST', url)).statusCode).toBe(404);
    // A member of both workspaces acting in their own: only the unit of work's workspace stands in the way.
    const both = await registerUser(app().app);
    await app().inspect((db) =>
      db.insert(workspaceMembers).values({ workspaceId: session.workspaceId, userId: both.user.id, role: 'editor' }),
    );
    expect((await proposals(both, 'GET', '')).json().data).toEqual([]);
    for (const url of [`/${proposal.id}/approve`, `/${proposal.id}/reject`])
      expect((await proposals(both, 'POST', url)).statusCode).toBe(404);
    const foreignRun = await app().app.inject({
      method: 'POST',
      url: `/api/rules/runs/${runId}/approve-all`,
      headers: stranger.auth,
    });
    expect(foreignRun.statusCode).toBe(404);
    expect(sandbox().sandbox.mutations).toEqual([]);
  });
});

describe('notify mode', () => {
  it('logs each decision as a notification and writes nothing', async () => {
    const { session, accounts } = await connectedUser(app());
    const { rule } = await pauseOneAd(session, thbAccount(accounts), { mode: 'notify' });
    await runNow(session, rule.id);
    expect(sandbox().sandbox.mutations).toEqual([]);
    expect((await ledgerOf(app(), rule.id)).map((row) => row.state)).toEqual(['notified']);
    const entries = await app().inspect((db) =>
      db.select().from(activityLogs).where(eq(activityLogs.workspaceId, session.workspaceId)),
    );
    const told = entries.find((row) => row.metadata.code === 'rule_action_notified');
    // `action: notify` is what the notifier sends at once, as it sends a rule's notify action.
    expect(told?.metadata).toMatchObject({ action: 'notify', proposed: 'pause', params: { action: 'pause' } });
    expect(await pending(session)).toEqual([]);
  });
});
