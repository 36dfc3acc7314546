import type { EntityRow, Proposal } from '@adpilot/contracts';
import { ruleActions, type AdAccountRow } from '@adpilot/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, connectMcp, freePort, listenOn } from '../../test/mcp-client.ts';
import { connectedUser, thbAccount, writesTo, type Session } from '../../test/rules-sandbox.ts';
import { createSandboxTestApp, type SandboxTestApp } from '../../test/test-app.ts';

/**
 * The agents' change tools (ADR 0145) against the running server and its Meta sandbox, driven by the official SDK's
 * client: `propose_changes` leaves proposals and writes nothing; `apply_change` writes once within the agent policy
 * (parallel identical calls included) and reverts, and turns into a proposal beyond it; a token without the scope
 * neither sees nor runs them. The actor is always the token, never anything the agent sent.
 */
let t: SandboxTestApp;
let origin: string;
let owner: Session;
let account: AdAccountRow;

type Change = {
  entityId: string;
  outcome: string;
  code?: string;
  from: unknown;
  to: unknown;
  proposalId?: string;
  actionId?: string;
};
type Log = { code: string; actor: { id: string; name: string; via?: string } | null; params: Record<string, unknown> };

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: owner.auth, ...(payload ? { payload } : {}) });

async function mint(scopes: string[], name: string) {
  const response = await api('POST', '/api/tokens', { name, scopes });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string; token: string; name: string };
}

async function entities(level: 'campaign' | 'adset' | 'ad'): Promise<EntityRow[]> {
  const response = await api('GET', `/api/entities?level=${level}&adAccountId=${account.id}&limit=500`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** Active ads, each of a different campaign from the others taken, so no two tests share a budget or a campaign. */
const taken = new Set<string>();
async function freshAd(): Promise<EntityRow> {
  const ad = (await entities('ad')).find(
    (row) => row.status === 'ACTIVE' && row.parents.campaign && !taken.has(row.parents.campaign.id),
  );
  if (!ad?.parents.campaign) throw new Error('no active ad left in a campaign of its own');
  taken.add(ad.parents.campaign.id);
  return ad;
}

/** An active ad set holding its own daily budget, in a campaign no other test took. */
async function freshAdSet(): Promise<EntityRow> {
  const adSet = (await entities('adset')).find(
    (row) =>
      row.status === 'ACTIVE' &&
      row.budget.holderId === row.id &&
      row.budget.daily !== null &&
      row.parents.campaign &&
      !taken.has(row.parents.campaign.id),
  );
  if (!adSet?.parents.campaign) throw new Error('no active ad set with its own daily budget left');
  taken.add(adSet.parents.campaign.id);
  return adSet;
}

async function logs(): Promise<Log[]> {
  const response = await api('GET', '/api/logs?limit=100');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.logs;
}

const agentRows = (credentialId: string) =>
  t.inspect((db) =>
    db
      .select()
      .from(ruleActions)
      .where(and(eq(ruleActions.actorType, 'agent'), eq(ruleActions.actorId, credentialId))),
  );

/** The owner's access token lives 15 minutes: after the clock moves past it, a new sign-in. */
async function signInAgain() {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: owner.user.email, password: owner.password },
  });
  expect(response.statusCode, response.body).toBe(200);
  owner = { ...owner, auth: { authorization: `Bearer ${response.json().data.token}` } };
}

async function call(client: Awaited<ReturnType<typeof connectMcp>>['client'], name: string, args: object) {
  const answer = answerOf(await client.callTool({ name, arguments: args as Record<string, unknown> }));
  expect(answer.error, `${name}: ${answer.text}`).toBe(false);
  return answer.json as Record<string, unknown>;
}

beforeAll(async () => {
  const port = await freePort();
  // One buyer with a dozen campaigns of ad sets holding their own daily budgets: each test takes campaigns of its own.
  t = await createSandboxTestApp(
    { RATE_LIMIT_MAX: '0', PUBLIC_URL: `http://127.0.0.1:${port}`, MCP_TOOL_CALLS_PER_MINUTE: '0' },
    {},
    {
      seed: {
        seed: 'mcp-changes',
        personas: [
          {
            name: 'Agent Owner',
            accounts: [
              {
                name: 'Agent Store',
                currency: 'THB',
                timezone: 'Asia/Bangkok',
                campaigns: 14,
                adSetsPerCampaign: 2,
                adsPerAdSet: 2,
                cboCampaigns: 0,
              },
            ],
          },
        ],
      },
    },
  );
  origin = await listenOn(t.app, port);
  const connected = await connectedUser(t);
  owner = connected.session;
  account = thbAccount(connected.accounts);
});
afterAll(() => t.close());

describe('propose_changes', () => {
  it('leaves pending proposals signed by the token and writes nothing to Meta, once however often it is sent', async () => {
    const agent = await mint(['propose'], 'Claude (proposals)');
    const { client } = await connectMcp(origin, agent.token);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('propose_changes');
    expect(names).not.toContain('apply_change');

    const [first, second] = [await freshAd(), await freshAd()];
    const before = [writesTo(t.sandbox, first.externalId).length, writesTo(t.sandbox, second.externalId).length];
    const args = {
      changes: [
        { entityId: first.id, type: 'pause' },
        { entityId: second.id, type: 'pause' },
      ],
      reason: 'Spent with no results for 7 days',
    };
    const answer = await call(client, 'propose_changes', args);
    const changes = answer.changes as Change[];
    expect(answer.proposed).toBe(2);
    expect(changes.map((change) => [change.entityId, change.outcome, change.from, change.to])).toEqual([
      [first.id, 'proposed', 'ACTIVE', 'PAUSED'],
      [second.id, 'proposed', 'ACTIVE', 'PAUSED'],
    ]);
    // The same call again (an agent retrying): the same proposals answer, none is added.
    const again = (await call(client, 'propose_changes', args)).changes as Change[];
    expect(again.map((change) => change.proposalId)).toEqual(changes.map((change) => change.proposalId));

    expect([writesTo(t.sandbox, first.externalId).length, writesTo(t.sandbox, second.externalId).length]).toEqual(
      before,
    );
    const pending = (await api('GET', '/api/proposals?status=pending')).json().data as Proposal[];
    const ours = pending.filter((proposal) => changes.some((change) => change.proposalId === proposal.id));
    expect(ours).toHaveLength(2);
    for (const proposal of ours)
      expect(proposal).toMatchObject({
        ruleId: null,
        action: 'pause',
        status: 'pending',
        actor: { type: 'agent', id: agent.id, name: 'Claude (proposals)' },
      });
    expect(await agentRows(agent.id)).toHaveLength(2);

    const signed = { id: agent.id, name: 'Claude (proposals)', via: 'mcp' };
    const entries = await logs();
    expect(entries.filter((entry) => entry.code === 'manual_action_proposed' && entry.actor?.id === agent.id)).toEqual([
      expect.objectContaining({ actor: signed }),
      expect.objectContaining({ actor: signed }),
    ]);
    expect(entries.find((entry) => entry.code === 'agent_tool_called')).toMatchObject({
      params: { tool: 'propose_changes' },
      actor: signed,
    });
    await client.close();
  });
});

describe('apply_change', () => {
  it('pauses within the policy: Meta written once, the token in the ledger and the log, and reverted', async () => {
    const agent = await mint(['write'], 'Claude (writer)');
    const { client } = await connectMcp(origin, agent.token);
    const ad = await freshAd();
    const before = writesTo(t.sandbox, ad.externalId).length;
    const answer = await call(client, 'apply_change', {
      entityId: ad.id,
      type: 'pause',
      reason: 'CPA three times the account’s',
    });
    const change = answer.change as Change;
    expect(change).toMatchObject({ outcome: 'applied', from: 'ACTIVE', to: 'PAUSED' });
    expect(answer.policy).toMatchObject({ route: 'apply', maxChangesPerDay: 20 });
    expect(writesTo(t.sandbox, ad.externalId)).toHaveLength(before + 1);
    // Sent again: the ad is paused already, and nothing more is written.
    const again = (await call(client, 'apply_change', { entityId: ad.id, type: 'pause', reason: 'again' }))
      .change as Change;
    expect(again).toMatchObject({ outcome: 'refused', code: 'ALREADY_PAUSED' });
    expect(writesTo(t.sandbox, ad.externalId)).toHaveLength(before + 1);

    const [row] = await agentRows(agent.id);
    expect(row).toMatchObject({
      id: change.actionId,
      actorType: 'agent',
      actorId: agent.id,
      actorName: 'Claude (writer)',
      actorUserId: owner.user.id,
      state: 'applied',
      proposal: null,
    });
    const applied = (await logs()).find((entry) => entry.code === 'manual_action_applied');
    expect(applied?.actor).toEqual({ id: agent.id, name: 'Claude (writer)', via: 'mcp' });

    const revert = await api('POST', `/api/rules/actions/${change.actionId}/revert`);
    expect(revert.statusCode, revert.body).toBe(200);
    expect(revert.json().data.action).toMatchObject({ status: 'reverted' });
    expect(writesTo(t.sandbox, ad.externalId)).toHaveLength(before + 2);
    expect((await entities('ad')).find((row) => row.id === ad.id)?.status).toBe('ACTIVE');
    await client.close();
  });

  it('writes Meta once for parallel identical calls', async () => {
    const agent = await mint(['write'], 'Eager agent');
    const { client } = await connectMcp(origin, agent.token);
    const adSet = await freshAdSet();
    const daily = adSet.budget.daily!;
    const before = writesTo(t.sandbox, adSet.externalId).length;
    const args = { entityId: adSet.id, type: 'increase_budget', percent: 10, reason: 'ROAS 4.2 over 7 days' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(client, 'apply_change', args)));
    const changes = answers.map((answer) => answer.change as Change);
    expect(changes.filter((change) => change.outcome === 'applied').length).toBeGreaterThan(0);
    for (const change of changes) expect(['applied', 'refused']).toContain(change.outcome);
    // Whoever did not write found the one row of the request, being written or written.
    for (const change of changes.filter((c) => c.outcome === 'refused')) expect(change.code).toBe('IN_PROGRESS');
    const budgetWrites = writesTo(t.sandbox, adSet.externalId).filter((write) => write.dailyBudget !== undefined);
    expect(budgetWrites).toHaveLength(1);
    expect(writesTo(t.sandbox, adSet.externalId)).toHaveLength(before + 1);
    const rows = await agentRows(agent.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'applied', field: 'daily_budget' });
    const detail = (await entities('adset')).find((row) => row.id === adSet.id);
    expect(detail?.budget.daily).toBeCloseTo(daily * 1.1, 0);

    // Sent again once it landed (a retry of an answer lost on the way): the first change answers, nothing is added,
    // although the budget it starts from has moved.
    const retry = await call(client, 'apply_change', args);
    expect(retry).toMatchObject({ repeated: true, change: { outcome: 'applied', actionId: rows[0]!.id } });
    expect(writesTo(t.sandbox, adSet.externalId)).toHaveLength(before + 1);
    // Past the retry window it is a new change of the new budget.
    t.clock.advance(16 * 60_000);
    await signInAgain();
    const later = await call(client, 'apply_change', args);
    expect(later.change).toMatchObject({ outcome: 'applied', from: detail?.budget.daily });
    expect(writesTo(t.sandbox, adSet.externalId)).toHaveLength(before + 2);
    await client.close();
  });

  it('turns a change beyond the policy into a proposal with the reasons, and writes nothing', async () => {
    const agent = await mint(['write'], 'Bold agent');
    const { client } = await connectMcp(origin, agent.token);
    const adSet = await freshAdSet();
    const ad = await freshAd();
    const protect = await api('PUT', `/api/workspaces/${owner.workspaceId}/agent-policy`, {
      maxBudgetChangePercent: 20,
      maxChangesPerDay: 20,
      protectedCampaignIds: [ad.parents.campaign!.id],
    });
    expect(protect.statusCode, protect.body).toBe(200);
    const before = [writesTo(t.sandbox, adSet.externalId).length, writesTo(t.sandbox, ad.externalId).length];

    const large = await call(client, 'apply_change', {
      entityId: adSet.id,
      type: 'increase_budget',
      percent: 50,
      reason: 'Scale the winner',
    });
    expect(large.change).toMatchObject({ outcome: 'proposed', from: adSet.budget.daily });
    expect(large.policy).toMatchObject({ route: 'propose', reasons: ['budget_change_too_large'] });
    const guarded = await call(client, 'apply_change', { entityId: ad.id, type: 'pause', reason: 'Fatigue' });
    expect(guarded.change).toMatchObject({ outcome: 'proposed', from: 'ACTIVE', to: 'PAUSED' });
    expect(guarded.policy).toMatchObject({ route: 'propose', reasons: ['protected_campaign'] });

    expect([writesTo(t.sandbox, adSet.externalId).length, writesTo(t.sandbox, ad.externalId).length]).toEqual(before);
    const pending = (await api('GET', '/api/proposals?status=pending')).json().data as Proposal[];
    const ids = [large.change, guarded.change].map((change) => (change as Change).proposalId);
    expect(pending.filter((proposal) => ids.includes(proposal.id))).toHaveLength(2);

    // The day's allowance spent (0 a day): every change, however small, is proposed.
    await api('PUT', `/api/workspaces/${owner.workspaceId}/agent-policy`, {
      maxBudgetChangePercent: 20,
      maxChangesPerDay: 0,
      protectedCampaignIds: [],
    });
    const small = await call(client, 'apply_change', {
      entityId: adSet.id,
      type: 'increase_budget',
      percent: 5,
      reason: 'A little more',
    });
    expect(small.policy).toMatchObject({ route: 'propose', reasons: ['daily_limit'] });
    expect(writesTo(t.sandbox, adSet.externalId)).toHaveLength(before[0]!);
    await api('PUT', `/api/workspaces/${owner.workspaceId}/agent-policy`, {
      maxBudgetChangePercent: 20,
      maxChangesPerDay: 20,
      protectedCampaignIds: [],
    });
    await client.close();
  });
});

describe('a token without the scope', () => {
  it('does not list the change tools to a read token, and answers its calls with the scope each needs', async () => {
    const reader = await mint(['read'], 'Read-only agent');
    const { client } = await connectMcp(origin, reader.token);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('propose_changes');
    expect(names).not.toContain('apply_change');
    const ad = await freshAd();
    const before = writesTo(t.sandbox, ad.externalId).length;
    const apply = answerOf(
      await client.callTool({ name: 'apply_change', arguments: { entityId: ad.id, type: 'pause', reason: 'x' } }),
    );
    expect(apply.error).toBe(true);
    expect(apply.text).toContain('"write" scope');
    const propose = answerOf(
      await client.callTool({
        name: 'propose_changes',
        arguments: { changes: [{ entityId: ad.id, type: 'pause' }], reason: 'x' },
      }),
    );
    expect(propose.error).toBe(true);
    expect(propose.text).toContain('"propose" scope');
    expect(writesTo(t.sandbox, ad.externalId)).toHaveLength(before);
    expect(await agentRows(reader.id)).toEqual([]);
    await client.close();
  });

  it('finds no entity of another workspace, to propose or to apply', async () => {
    const other = await connectedUser(t);
    const theirs = (
      await t.app.inject({ method: 'GET', url: '/api/entities?level=ad&limit=5', headers: other.session.auth })
    ).json().data as EntityRow[];
    const target = theirs.find((row) => row.status === 'ACTIVE')!;
    expect(target).toBeDefined();
    const before = writesTo(t.sandbox, target.externalId).length;
    const agent = await mint(['write'], 'Wandering agent');
    const { client } = await connectMcp(origin, agent.token);
    const applied = await call(client, 'apply_change', { entityId: target.id, type: 'pause', reason: 'theirs' });
    expect(applied.change).toMatchObject({ outcome: 'refused', code: 'ENTITY_NOT_FOUND' });
    const proposed = await call(client, 'propose_changes', {
      changes: [{ entityId: target.id, type: 'pause' }],
      reason: 'theirs',
    });
    expect(proposed).toMatchObject({ proposed: 0, changes: [{ outcome: 'refused', code: 'ENTITY_NOT_FOUND' }] });
    expect(writesTo(t.sandbox, target.externalId)).toHaveLength(before);
    expect(await agentRows(agent.id)).toEqual([]);
    await client.close();
  });

  it('refuses bad changes with the field, before anything is read or written', async () => {
    const agent = await mint(['write'], 'Careless writer');
    const { client } = await connectMcp(origin, agent.token);
    const ad = await freshAd();
    const bad = answerOf(
      await client.callTool({
        name: 'apply_change',
        arguments: { entityId: ad.id, type: 'set_budget', reason: 'no amount' },
      }),
    );
    expect(bad.error).toBe(true);
    expect(bad.text).toContain('amount');
    const twice = answerOf(
      await client.callTool({
        name: 'propose_changes',
        arguments: {
          changes: [
            { entityId: ad.id, type: 'pause' },
            { entityId: ad.id, type: 'pause' },
          ],
          reason: 'twice',
        },
      }),
    );
    expect(twice.error).toBe(true);
    expect(twice.text).toContain('changes.1.entityId');
    // An actor is never taken from the agent: a call naming one is refused, not signed with it.
    const posing = answerOf(
      await client.callTool({
        name: 'apply_change',
        arguments: { entityId: ad.id, type: 'pause', reason: 'as someone else', actor: { name: 'The owner' } },
      }),
    );
    expect(posing.error).toBe(true);
    expect(posing.text).toContain('actor');
    expect(await agentRows(agent.id)).toEqual([]);
    await client.close();
  });
});
