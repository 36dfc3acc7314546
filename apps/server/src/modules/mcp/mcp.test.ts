import { WORKSPACE_HEADER, type Proposal } from '@adpilot/contracts';
import { workspaceMembers, type AdAccountRow } from '@adpilot/db';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, connectMcp, freePort, listenOn } from '../../test/mcp-client.ts';
import { buildRule } from '../../test/rule-factories.ts';
import { connectedUser, HeldScheduler, mirrorEntities, thbAccount, type Session } from '../../test/rules-sandbox.ts';
import { createSandboxTestApp, type SandboxTestApp } from '../../test/test-app.ts';
import { createWorkspace } from '../../test/workspace-fixtures.ts';

/**
 * The MCP endpoint against the running server, driven by the official SDK's client over Streamable HTTP (and by raw
 * requests where the wire itself is the subject): what each token sees and may call, the workspace's own figures,
 * the log signed by the token, revocation ending an open session, isolation, the per-token limit.
 */
const READ_TOOLS = [
  'list_ad_accounts',
  'query_entities',
  'get_entity',
  'compare_periods',
  'list_rules',
  'get_rule',
  'preview_rule',
  'backtest_rule',
  'rule_impact',
  'list_activity',
  'list_proposals',
  'get_proposal',
  'draft_rule',
];
const LIMIT = 40;

const held = new HeldScheduler();
let t: SandboxTestApp;
let origin: string;
let owner: Session;
let account: AdAccountRow;
let ruleId: string;
let proposal: Proposal;

const api = (
  session: Session,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
  workspaceId?: string,
) =>
  t.app.inject({
    method,
    url,
    headers: { ...session.auth, ...(workspaceId ? { [WORKSPACE_HEADER]: workspaceId } : {}) },
    ...(payload ? { payload } : {}),
  });

async function mint(scopes: string[], name = `Agent ${scopes.join('+')}`, by = owner, workspaceId?: string) {
  const response = await api(by, 'POST', '/api/tokens', { name, scopes }, workspaceId);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string; token: string; name: string };
}

async function drain() {
  for (let batch = held.take(); batch.length > 0; batch = held.take())
    for (const { request } of batch) await t.modules.rules.runner.run(request);
}

const initialize = (version: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

function post(token: string | null, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** A raw session: initialize and the initialized notification; its id. */
async function rawSession(token: string, version = LATEST_PROTOCOL_VERSION): Promise<string> {
  const opened = await post(token, initialize(version));
  expect(opened.status).toBe(200);
  const id = opened.headers.get('mcp-session-id')!;
  const ready = await post(
    token,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'mcp-session-id': id, 'mcp-protocol-version': version },
  );
  expect(ready.status).toBe(202);
  return id;
}

beforeAll(async () => {
  const port = await freePort();
  t = await createSandboxTestApp(
    { RATE_LIMIT_MAX: '0', PUBLIC_URL: `http://127.0.0.1:${port}`, MCP_TOOL_CALLS_PER_MINUTE: String(LIMIT) },
    { rules: { scheduler: held } },
  );
  origin = await listenOn(t.app, port);
  const connected = await connectedUser(t);
  owner = connected.session;
  account = thbAccount(connected.accounts);
  // A rule in approve mode that judges every active ad: its run leaves proposals in the Inbox.
  const ads = await mirrorEntities(t, account, 'ad');
  const ad = ads.find((row) => row.status === 'ACTIVE')!;
  const created = await api(
    owner,
    'POST',
    '/api/rules',
    buildRule({
      name: 'Pause one ad',
      scope: { adAccountIds: [account.id], level: 'ad', statuses: ['ACTIVE'], nameContains: ad.name },
      conditions: { match: 'all', items: [{ metric: 'impressions', operator: 'gte', value: 0, window: 'last_7d' }] },
      safeguards: { cooldownHours: 0, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
      mode: 'approve',
    }),
  );
  expect(created.statusCode, created.body).toBe(201);
  ruleId = created.json().data.id;
  expect((await api(owner, 'POST', `/api/rules/${ruleId}/run`)).statusCode).toBe(202);
  await drain();
  [proposal] = (await api(owner, 'GET', '/api/proposals')).json().data;
  expect(proposal).toBeDefined();
});
afterAll(() => t.close());

describe('what a token sees and may call', () => {
  it('lists a read token the read tools only, each with its schema and one line, in the SDK’s default version', async () => {
    const { token } = await mint(['read']);
    const { client, transport } = await connectMcp(origin, token);
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerVersion()?.name).toBe('AdPilot');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(READ_TOOLS);
    for (const tool of tools) {
      expect(tool.description, tool.name).toMatch(/^[^\n]{20,120}$/);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    }
    await client.close();
  });

  it('lists a write token the write and change tools too, and answers a read token’s call with the scope it lacks', async () => {
    const proposer = await connectMcp(origin, (await mint(['propose'])).token);
    expect((await proposer.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      ...READ_TOOLS,
      'propose_changes',
    ]);
    await proposer.client.close();
    const writer = await connectMcp(origin, (await mint(['write'])).token);
    expect((await writer.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      ...READ_TOOLS,
      'create_rule',
      'propose_changes',
      'apply_change',
    ]);
    await writer.client.close();

    const reader = await mint(['read'], 'Reader that tries');
    const { client } = await connectMcp(origin, reader.token);
    const answer = answerOf(await client.callTool({ name: 'create_rule', arguments: { rule: buildRule() } }));
    expect(answer.error).toBe(true);
    expect(answer.text).toContain('"write" scope');
    const logs = (await api(owner, 'GET', '/api/logs?type=agent&limit=5')).json().data.logs;
    expect(logs[0]).toMatchObject({
      code: 'agent_tool_refused',
      params: { tool: 'create_rule', scope: 'write' },
      actor: { id: reader.id, name: 'Reader that tries', via: 'mcp' },
    });
    const rules = (await api(owner, 'GET', '/api/rules')).json().data;
    expect(rules.map((rule: { name: string }) => rule.name)).toEqual(['Pause one ad']);
    await client.close();
  });

  it('gives the token of a member now a viewer only the read tools, whatever its scopes', async () => {
    const workspaceId = await createWorkspace(t, owner, 'Client A');
    const { session: member } = await connectedUser(t);
    await t.inspect((db) => db.insert(workspaceMembers).values({ workspaceId, userId: member.user.id, role: 'admin' }));
    const { token } = await mint(['write'], 'Demoted', member, workspaceId);
    await t.inspect((db) =>
      db
        .update(workspaceMembers)
        .set({ role: 'viewer' })
        .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, member.user.id))),
    );
    const { client } = await connectMcp(origin, token);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(READ_TOOLS);
    const answer = answerOf(await client.callTool({ name: 'create_rule', arguments: { rule: buildRule() } }));
    expect(answer).toMatchObject({ error: true });
    expect(answer.text).toContain('"write" scope');
    await client.close();
  });
});

describe('the workspace’s own data, as the REST API answers it', () => {
  it('answers the accounts, rules, preview, backtest, impact, proposals and activity of the workspace', async () => {
    const { client } = await connectMcp(origin, (await mint(['read'], 'Analyst')).token);
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const answer = answerOf(await client.callTool({ name, arguments: args }));
      expect(answer.error, `${name}: ${answer.text}`).toBe(false);
      return answer.json as Record<string, unknown>;
    };

    const restAccounts = (await api(owner, 'GET', '/api/ad-accounts')).json().data;
    const accounts = (await call('list_ad_accounts')).accounts as { id: string; name: string; currency: string }[];
    expect(accounts.map(({ id, name, currency }) => ({ id, name, currency }))).toEqual(
      restAccounts.map((a: { id: string; facebook_account_name: string; currency: string }) => ({
        id: a.id,
        name: a.facebook_account_name,
        currency: a.currency,
      })),
    );

    const rules = await call('list_rules', { limit: 5 });
    expect(rules).toMatchObject({
      total: 1,
      nextCursor: null,
      rules: [{ id: ruleId, name: 'Pause one ad', mode: 'approve' }],
    });
    expect(await call('get_rule', { ruleId })).toEqual({
      rule: (await api(owner, 'GET', `/api/rules/${ruleId}`)).json().data,
    });

    const restPreview = (await api(owner, 'POST', `/api/rules/${ruleId}/preview`)).json().data;
    const preview = await call('preview_rule', { ruleId });
    expect(preview.totals).toEqual(restPreview.totals);
    expect((preview.matched as unknown[]).length).toBe(restPreview.totals.matched);

    const restBacktest = (await api(owner, 'POST', `/api/rules/${ruleId}/backtest`, { days: 7 })).json().data;
    const backtest = await call('backtest_rule', { ruleId, days: 7 });
    expect(backtest.totals).toEqual(restBacktest.totals);
    expect((backtest.days as unknown[]).length).toBe(restBacktest.days.length);

    const range = { from: restBacktest.from, to: restBacktest.to };
    const restImpact = (await api(owner, 'GET', `/api/rules/${ruleId}/impact?from=${range.from}&to=${range.to}`)).json()
      .data;
    expect((await call('rule_impact', { ruleId, ...range })).totals).toEqual(restImpact.totals);

    const restProposals = (await api(owner, 'GET', '/api/proposals')).json().data as Proposal[];
    const proposals = (await call('list_proposals')) as { total: number; proposals: { id: string; status: string }[] };
    expect(proposals.total).toBe(restProposals.length);
    expect(proposals.proposals.map(({ id, status }) => ({ id, status }))).toEqual(
      restProposals.map(({ id, status }) => ({ id, status })),
    );
    expect(await call('get_proposal', { proposalId: proposal.id })).toEqual({
      proposal: restProposals.find(({ id }) => id === proposal.id),
    });

    const page = await call('list_activity', { type: 'rule_action', limit: 1 });
    const restLogs = (await api(owner, 'GET', '/api/logs?type=rule_action&limit=1')).json().data;
    expect((page.entries as { id: string }[]).map((entry) => entry.id)).toEqual(
      restLogs.logs.map((log: { _id: string }) => log._id),
    );
    expect(page.total).toBe(restLogs.pagination.total);
    await client.close();
  });

  it('answers the explorer’s entities with the figures the Campaigns page shows, paged, and one entity’s days', async () => {
    const { client } = await connectMcp(origin, (await mint(['read'], 'Explorer agent')).token);
    const call = async (name: string, args: Record<string, unknown>) => {
      const answer = answerOf(await client.callTool({ name, arguments: args }));
      expect(answer.error, `${name}: ${answer.text}`).toBe(false);
      return answer.json as Record<string, unknown>;
    };
    type Row = { id: string; name: string; metrics: Record<string, number | null>; previous: Record<string, unknown> };
    const rest = (
      await api(owner, 'GET', `/api/entities?level=ad&adAccountId=${account.id}&window=last_14d&sort=-cpa&limit=10`)
    ).json();
    const page = await call('query_entities', {
      level: 'ad',
      adAccountId: account.id,
      window: 'last_14d',
      sort: '-cpa',
      limit: 10,
    });
    const rows = page.rows as Row[];
    expect(rows.map((row) => [row.id, row.name, row.metrics, row.previous])).toEqual(
      rest.data.map((row: Row) => [row.id, row.name, row.metrics, row.previous]),
    );
    expect(page.totals).toEqual(rest.totals);
    expect(page.total).toBe(rest.total);
    const next = await call('query_entities', {
      level: 'ad',
      adAccountId: account.id,
      window: 'last_14d',
      sort: '-cpa',
      limit: 10,
      cursor: page.nextCursor,
    });
    const restNext = (
      await api(
        owner,
        'GET',
        `/api/entities?level=ad&adAccountId=${account.id}&window=last_14d&sort=-cpa&limit=10&cursor=${rest.nextCursor}`,
      )
    ).json();
    expect((next.rows as Row[]).map((row) => row.id)).toEqual(restNext.data.map((row: Row) => row.id));

    const id = rows[0]!.id;
    const entity = await call('get_entity', { entityId: id, window: 'last_30d' });
    const detail = (await api(owner, 'GET', `/api/entities/${id}?window=last_30d`)).json().data;
    expect((entity.entity as Row).metrics).toEqual(detail.metrics);
    expect(entity.daily).toEqual(detail.daily);
    const compared = await call('compare_periods', { entityId: id, from: detail.account.from, to: detail.account.to });
    const spend = (compared.changes as { metric: string; current: number; against: number }[]).find(
      (c) => c.metric === 'spend',
    );
    expect(spend).toMatchObject({ current: detail.metrics.spend, against: detail.previous.spend });
    await client.close();
  });

  it('refuses bad arguments with the field, and an unknown cursor, as errors the agent reads', async () => {
    const { client } = await connectMcp(origin, (await mint(['read'], 'Careless')).token);
    const bad = answerOf(await client.callTool({ name: 'get_rule', arguments: { ruleId: 'not-a-uuid' } }));
    expect(bad).toMatchObject({ error: true });
    expect(bad.text).toContain('ruleId');
    const cursor = answerOf(await client.callTool({ name: 'list_rules', arguments: { cursor: 'x' } }));
    expect(cursor.text).toContain('cursor');
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });
});

describe('writes, signed by the token', () => {
  it('makes create_rule’s rule in approve mode, whatever mode was asked, signed by the token', async () => {
    const writer = await mint(['write'], 'Claude (rules)');
    const { client } = await connectMcp(origin, writer.token);
    const answer = answerOf(
      await client.callTool({
        name: 'create_rule',
        arguments: { rule: buildRule({ name: 'Drafted by an agent', mode: 'auto', isActive: true }) },
      }),
    );
    expect(answer.error, answer.text).toBe(false);
    const rule = (answer.json as { rule: { id: string; mode: string; isActive: boolean } }).rule;
    expect(rule).toMatchObject({ mode: 'approve', isActive: true });
    const saved = (await api(owner, 'GET', `/api/rules/${rule.id}`)).json().data;
    expect(saved.mode).toBe('approve');
    const logs = (await api(owner, 'GET', '/api/logs?limit=10')).json().data.logs as {
      code: string;
      actor: unknown;
      params: Record<string, unknown>;
    }[];
    const signed = { id: writer.id, name: 'Claude (rules)', via: 'mcp' };
    expect(
      logs.find((log) => log.code === 'rule_created' && log.params.ruleName === 'Drafted by an agent')?.actor,
    ).toEqual(signed);
    expect(logs.find((log) => log.code === 'agent_tool_called' && log.params.tool === 'create_rule')?.actor).toEqual(
      signed,
    );
    await api(owner, 'DELETE', `/api/rules/${rule.id}`);
    await client.close();
  });
});

describe('revocation and isolation', () => {
  it('refuses a revoked token at once, its open session and stream included', async () => {
    const agent = await mint(['read'], 'To be revoked');
    const { client } = await connectMcp(origin, agent.token);
    expect((await client.listTools()).tools.length).toBe(READ_TOOLS.length);
    const sessionId = await rawSession(agent.token);
    const stream = await fetch(`${origin}/mcp`, {
      headers: {
        authorization: `Bearer ${agent.token}`,
        accept: 'text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      },
    });
    expect(stream.status).toBe(200);
    const before = t.modules.mcp.sessions.count();

    expect((await api(owner, 'DELETE', `/api/tokens/${agent.id}`)).statusCode).toBe(200);
    // The open stream ends: its body is read to its end, however long the server would otherwise have kept it.
    const reader = stream.body!.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read());
    expect(t.modules.mcp.sessions.count()).toBe(before - 2);
    await expect(client.callTool({ name: 'list_rules', arguments: {} })).rejects.toThrow(/revoked/);
    const again = await post(
      agent.token,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'mcp-session-id': sessionId },
    );
    expect(again.status).toBe(401);
  });

  it('shows a token none of another workspace’s ids, and finds none of them', async () => {
    const other = await connectedUser(t);
    const otherRule = await api(other.session, 'POST', '/api/rules', buildRule({ name: 'Theirs' }));
    const { client } = await connectMcp(origin, (await mint(['read'], 'Isolated')).token);
    const accounts = answerOf(await client.callTool({ name: 'list_ad_accounts', arguments: {} })).json as {
      accounts: { id: string }[];
    };
    const theirs = new Set(other.accounts.map((a) => a.id));
    expect(accounts.accounts.length).toBeGreaterThan(0);
    expect(accounts.accounts.filter((a) => theirs.has(a.id))).toEqual([]);
    const rule = answerOf(await client.callTool({ name: 'get_rule', arguments: { ruleId: otherRule.json().data.id } }));
    expect(rule.error).toBe(true);
    expect(rule.text).toContain('not found');
    // A workspace its own creator also belongs to is no more the token's: row-level security's membership test passes
    // there, and only the token's workspace stands between them.
    const sibling = await createWorkspace(t, owner, 'Sibling');
    const siblingRule = await api(owner, 'POST', '/api/rules', buildRule({ name: 'Sibling’s' }), sibling);
    expect(siblingRule.statusCode).toBe(201);
    const crossed = answerOf(
      await client.callTool({ name: 'get_rule', arguments: { ruleId: siblingRule.json().data.id } }),
    );
    expect(crossed.error).toBe(true);
    const rules = answerOf(await client.callTool({ name: 'list_rules', arguments: {} })).json as {
      rules: { name: string }[];
    };
    expect(rules.rules.map((r) => r.name)).not.toContain('Theirs');
    expect(rules.rules.map((r) => r.name)).not.toContain('Sibling’s');
    // The explorer's tools: none of the other workspace's entities is listed, and asking for one finds nothing.
    const theirEntity = (await api(other.session, 'GET', '/api/entities')).json().data[0];
    expect(theirEntity).toBeDefined();
    const listed = answerOf(await client.callTool({ name: 'query_entities', arguments: { limit: 25 } })).json as {
      rows: { id: string; adAccountId: string }[];
    };
    expect(listed.rows.filter((row) => row.id === theirEntity.id || theirs.has(row.adAccountId))).toEqual([]);
    const lookup = answerOf(await client.callTool({ name: 'get_entity', arguments: { entityId: theirEntity.id } }));
    expect(lookup.error).toBe(true);
    expect(lookup.text).toContain('not found');
    await client.close();
  });

  it('does not let one token use another’s session', async () => {
    const first = await mint(['read'], 'First');
    const second = await mint(['read'], 'Second');
    const sessionId = await rawSession(first.token);
    const stolen = await post(
      second.token,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'mcp-session-id': sessionId },
    );
    expect(stolen.status).toBe(404);
  });
});

describe('the wire', () => {
  it('answers 401 with where to find the authorization server when no token is given', async () => {
    const response = await post(null, initialize(LATEST_PROTOCOL_VERSION));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="read propose write"`,
    );
    const wrong = await post('adp_not-a-token', initialize(LATEST_PROTOCOL_VERSION));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('speaks the version before the default as well, answers an older one with the newest, refuses another header', async () => {
    const { token } = await mint(['read'], 'Versions');
    const previous = await post(token, initialize('2025-06-18'));
    expect(((await previous.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(
      '2025-06-18',
    );
    const older = await post(token, initialize('2024-11-05'));
    expect(((await older.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(
      LATEST_PROTOCOL_VERSION,
    );
    const sessionId = await rawSession(token);
    const refused = await post(
      token,
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' },
    );
    expect(refused.status).toBe(400);
  });

  it('refuses a page of another origin', async () => {
    const { token } = await mint(['read'], 'Rebinding');
    const response = await post(token, initialize(LATEST_PROTOCOL_VERSION), { origin: 'http://evil.example' });
    expect(response.status).toBe(403);
  });

  it('lets a token make its minute’s tool calls and no more, however many arrive at once, and counts them', async () => {
    const { token } = await mint(['read'], 'Busy');
    const sessionId = await rawSession(token);
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    const answers = await Promise.all(
      Array.from({ length: LIMIT + 5 }, (_, i) =>
        post(
          token,
          { jsonrpc: '2.0', id: i + 10, method: 'tools/call', params: { name: 'list_ad_accounts', arguments: {} } },
          headers,
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited).toHaveLength(5);
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited[0]!.json()) as { error: { message: string } }).error.message).toMatch(/try again in \d+ s/);

    const metrics = (await api(owner, 'GET', '/api/metrics')).body;
    const count = (outcome: string) =>
      Number(
        new RegExp(`adpilot_mcp_tool_calls_total\\{tool="list_ad_accounts",outcome="${outcome}"\\} (\\d+)`).exec(
          metrics,
        )?.[1] ?? 0,
      );
    expect(count('rate_limited')).toBeGreaterThanOrEqual(5);
    expect(count('ok')).toBeGreaterThanOrEqual(LIMIT);
  });
});
