import { expect, test, type APIRequestContext } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import { signInFreshUser } from './session.ts';
import { chooseLanguage } from './walk.ts';

/*
 * AI agents (ADR 0150–0153), as an owner sets them up in the browser: an API token made in Settings and shown once,
 * used by an agent over MCP, its call in the Activity log signed "via MCP", revoked from the page and refused at once;
 * and an AI client connecting through OAuth, the owner answering AdPilot's consent page.
 */

const MCP_HEADERS = { accept: 'application/json, text/event-stream' };
const VERSION = '2025-11-25';

/** An MCP session of `token`: initialize and the initialized notification; the headers of its later requests. */
async function mcpSession(request: APIRequestContext, token: string) {
  const headers = { ...MCP_HEADERS, authorization: `Bearer ${token}` };
  const opened = await request.post('/mcp', {
    headers,
    data: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'e2e agent', version: '1' } },
    },
  });
  expect(opened.status()).toBe(200);
  const session = {
    ...headers,
    'mcp-session-id': opened.headers()['mcp-session-id']!,
    'mcp-protocol-version': VERSION,
  };
  await request.post('/mcp', { headers: session, data: { jsonrpc: '2.0', method: 'notifications/initialized' } });
  return session;
}

test('an owner makes a token an agent uses over MCP, sees its call signed in the log, and revokes it', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await signInFreshUser(page, request, 'agents');
  let token = '';

  await test.step('the token is made in Settings and shown once', async () => {
    await page.goto('/settings');
    await page.getByRole('link', { name: /AI agents & API tokens/ }).click();
    await expect(page.getByRole('heading', { name: 'AI agents & API tokens', level: 1 })).toBeVisible();
    await expect(page.getByTestId('mcp-endpoint')).toHaveText(/\/mcp$/);
    await page.getByRole('button', { name: 'New API token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    await dialog.getByLabel('Name').fill('Claude Desktop');
    await dialog.getByLabel(/^Read only/).check();
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API token' });
    token = (await shown.getByTestId('created-token').textContent()) ?? '';
    expect(token).toMatch(/^adp_/);
    await shown.getByRole('tab', { name: 'Claude Code' }).click();
    await expect(shown.getByRole('tabpanel')).toContainText(`claude mcp add --transport http adpilot`);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('list', { name: 'API tokens and connected apps' })).toContainText('Claude Desktop');
    await expect(page.getByText(token)).toHaveCount(0);
  });

  await test.step('an agent lists the tools a read token may use and calls one', async () => {
    const session = await mcpSession(request, token);
    const listed = await request.post('/mcp', {
      headers: session,
      data: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    });
    const names = ((await listed.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(names).toContain('list_rules');
    expect(names).not.toContain('create_rule');
    const called = await request.post('/mcp', {
      headers: session,
      data: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'create_rule', arguments: {} } },
    });
    const answer = ((await called.json()) as { result: { isError: boolean; content: { text: string }[] } }).result;
    expect(answer.isError).toBe(true);
    expect(answer.content[0]!.text).toContain('"write" scope');
  });

  await test.step('the Activity log names the token', async () => {
    await page.goto('/activity');
    await expect(
      page.getByText('Refused the tool create_rule: it needs “read, propose and write” access').first(),
    ).toBeVisible();
    await expect(page.getByText('by Claude Desktop via MCP').first()).toBeVisible();
  });

  await test.step('revoked from the page, the token is refused at once', async () => {
    await page.goto('/settings/api-tokens');
    await page.getByRole('button', { name: 'Revoke Claude Desktop' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke “Claude Desktop”?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await expect(page.getByText('No API tokens or connected apps yet.')).toBeVisible();
    const refused = await request.post('/mcp', {
      headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` },
      data: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(refused.status()).toBe(401);
  });
});

test('an AI client connects through OAuth: the owner allows it on the consent page, in Thai', async ({
  context,
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await chooseLanguage(context, 'th');
  await signInFreshUser(page, request, 'oauth');
  const redirectUri = 'https://client.example/callback';
  const registered = await request.post('/oauth/register', {
    data: { client_name: 'Claude', redirect_uris: [redirectUri] },
  });
  expect(registered.status()).toBe(201);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  // The client's redirect URI, where the browser lands with the code.
  let landed = '';
  await page.route(`${redirectUri}**`, async (route) => {
    landed = route.request().url();
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Connected</h1>' });
  });
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'read propose',
    state: 'e2e-state',
    resource: new URL('/mcp', page.url()).toString(),
  });
  await page.goto(`/oauth/authorize?${query}`);
  await expect(page.getByRole('heading', { name: 'อนุญาตให้ Claude ใช้ AdPilot ไหม' })).toBeVisible();
  await expect(page.getByText('สิทธิ์จะถูกส่งไปที่ client.example')).toBeVisible();
  await page.getByRole('checkbox', { name: /^เสนอ/ }).check();
  await page.getByRole('button', { name: 'อนุญาต' }).click();
  await expect.poll(() => landed).toContain('code=');
  const back = new URL(landed);
  expect(back.searchParams.get('state')).toBe('e2e-state');

  const exchanged = await request.post('/oauth/token', {
    form: {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: redirectUri,
    },
  });
  expect(exchanged.status()).toBe(200);
  const tokens = (await exchanged.json()) as { access_token: string; scope: string };
  expect(tokens.scope).toBe('read propose');
  await mcpSession(request, tokens.access_token);
});
