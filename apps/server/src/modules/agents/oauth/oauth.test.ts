import { WORKSPACE_HEADER } from '@adpilot/contracts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, listenOn } from '../../../test/mcp-client.ts';
import { createTestApp, registerUser, type TestApp } from '../../../test/test-app.ts';

/**
 * OAuth 2.1 for MCP clients (ADR 0153), completed by a scripted client: the official SDK's own OAuth client (discovery
 * from the 401, dynamic registration, PKCE S256, the resource indicator, the code exchange), with this test as the
 * browser and the member on AdPilot's consent page. Then the protocol's refusals, one by one.
 */
const REDIRECT = 'http://127.0.0.1:45678/callback';

let t: TestApp;
let origin: string;
let owner: Awaited<ReturnType<typeof registerUser>>;

/** What an MCP client keeps: its registration, its tokens and the PKCE verifier of the flow under way. */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata = {
    client_name: 'Desk agent',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  state = () => 'state-of-the-flow';
  clientInformation = () => this.client;
  saveClientInformation = (client: OAuthClientInformationMixed) => {
    this.client = client;
  };
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => {
    this.saved = tokens;
  };
  redirectToAuthorization = (url: URL) => {
    this.authorizationUrl = url;
  };
  saveCodeVerifier = (verifier: string) => {
    this.verifier = verifier;
  };
  codeVerifier = () => this.verifier;
}

const asOwner = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { ...owner.auth, [WORKSPACE_HEADER]: owner.workspaceId },
    ...(payload ? { payload } : {}),
  });

/** The browser's part: follow /oauth/authorize to the consent page, and the member's answer on it. */
async function consent(authorizationUrl: URL, answer: { decision: 'allow' | 'deny'; scopes: string[] }) {
  const authorize = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const page = new URL(authorize.headers.get('location')!);
  expect(page.origin + page.pathname).toBe(`${origin}/oauth/consent`);
  const query = Object.fromEntries(page.searchParams);
  const shown = await asOwner('GET', `/api/oauth/authorization?${page.searchParams}`);
  const decided = await asOwner('POST', '/api/oauth/consent', { ...query, ...answer, workspaceId: owner.workspaceId });
  return { shown, decided, query };
}

const token = (form: Record<string, string>) =>
  fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });

async function register(redirectUris = [REDIRECT]) {
  const response = await fetch(`${origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Scripted', redirect_uris: redirectUris }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** A code for a client of our own making, straight through the consent API (the SDK flow is tested once, above). */
async function codeFor(clientId: string, challenge: string, scopes = ['read']) {
  const query = {
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'read propose write',
    resource: `${origin}/mcp`,
  };
  const decided = await asOwner('POST', '/api/oauth/consent', {
    ...query,
    decision: 'allow',
    scopes,
    workspaceId: owner.workspaceId,
  });
  expect(decided.statusCode, decided.body).toBe(200);
  return new URL(decided.json().data.redirectTo).searchParams.get('code')!;
}

beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp({ RATE_LIMIT_MAX: '0', PUBLIC_URL: `http://127.0.0.1:${port}` });
  origin = await listenOn(t.app, port);
  owner = await registerUser(t.app);
});
afterAll(() => t.close());

describe('an MCP client connects through OAuth, the member consenting in AdPilot', () => {
  it('discovers, registers, is authorised with PKCE for the scopes the member chose, and calls tools', async () => {
    const provider = new MemoryProvider();
    const url = new URL(`${origin}/mcp`);
    await expect(
      new Client({ name: 'scripted', version: '1' }).connect(
        new StreamableHTTPClientTransport(url, { authProvider: provider }),
      ),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const asked = provider.authorizationUrl!;
    expect(asked.origin + asked.pathname).toBe(`${origin}/oauth/authorize`);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('resource')).toBe(`${origin}/mcp`);

    const { shown, decided } = await consent(asked, { decision: 'allow', scopes: ['read'] });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data).toMatchObject({
      client: { name: 'Desk agent' },
      redirectHost: '127.0.0.1:45678',
      loopback: true,
      scopes: ['read', 'propose', 'write'],
    });
    expect(shown.json().data.workspaces).toContainEqual(
      expect.objectContaining({ id: owner.workspaceId, role: 'owner', grantable: ['read', 'propose', 'write'] }),
    );
    const back = new URL(decided.json().data.redirectTo);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('state-of-the-flow');
    expect(back.searchParams.get('iss')).toBe(origin);

    const finishing = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await finishing.finishAuth(back.searchParams.get('code')!);
    expect(provider.saved).toMatchObject({ token_type: 'Bearer', scope: 'read', expires_in: 3600 });
    expect(provider.saved!.access_token).toMatch(/^adpo_/);

    const client = new Client({ name: 'scripted', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('list_rules');
    expect(tools).not.toContain('create_rule');
    await client.close();

    // The grant is listed beside the tokens, named after the client, and logged.
    const listed = (await asOwner('GET', '/api/tokens')).json().data;
    const grant = listed.find(
      (item: { kind: string; name: string }) => item.kind === 'oauth' && item.name === 'Desk agent',
    );
    expect(grant).toMatchObject({
      name: 'Desk agent',
      scopes: ['read'],
      hint: null,
      client: { name: 'Desk agent', redirectHost: '127.0.0.1:45678' },
    });
    const logs = (await asOwner('GET', '/api/logs?limit=20')).json().data.logs;
    expect(logs.map((log: { code: string }) => log.code)).toContain('agent_connected');

    // Revoking the grant refuses its access token at once.
    expect((await asOwner('DELETE', `/api/tokens/${grant.id}`)).statusCode).toBe(200);
    const again = new Client({ name: 'scripted', version: '1' });
    await expect(again.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))).rejects.toThrow();
  });

  it('publishes the metadata MCP clients discover', async () => {
    const resource = await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(resource).toMatchObject({
      resource: `${origin}/mcp`,
      authorization_servers: [origin],
      scopes_supported: ['read', 'propose', 'write'],
    });
    expect(await (await fetch(`${origin}/.well-known/oauth-protected-resource`)).json()).toEqual(resource);
    const server = await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json();
    expect(server).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
  });
});

describe('the protocol’s refusals', () => {
  it('registers only https or loopback redirect URIs, as public clients', async () => {
    expect((await register(['http://example.com/callback'])).body.error).toBe('invalid_redirect_uri');
    expect((await register(['https://example.com/cb#frag'])).body.error).toBe('invalid_redirect_uri');
    expect((await register([])).status).toBe(400);
    const ok = await register(['https://client.example/callback', REDIRECT]);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
  });

  it('sends an unknown client or an unregistered redirect to the consent page, never to the redirect URI', async () => {
    const { body } = await register();
    const { challenge } = pkce();
    const base = { response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256' };
    for (const query of [
      { ...base, client_id: '00000000-0000-4000-8000-000000000000', redirect_uri: REDIRECT },
      { ...base, client_id: String(body.client_id), redirect_uri: 'https://attacker.example/steal' },
    ]) {
      const answer = await fetch(`${origin}/oauth/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });
      expect(new URL(answer.headers.get('location')!).pathname).toBe('/oauth/consent');
      const shown = await asOwner('GET', `/api/oauth/authorization?${new URLSearchParams(query)}`);
      expect(shown.statusCode).toBe(400);
      expect(shown.json().code).toBe('OAUTH_REQUEST_INVALID');
    }
  });

  it('sends a request without PKCE back to the client with invalid_request, and a denial with access_denied', async () => {
    const { body } = await register();
    const query = { client_id: String(body.client_id), redirect_uri: REDIRECT, response_type: 'code', state: 's1' };
    const answer = await fetch(`${origin}/oauth/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });
    const back = new URL(answer.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'invalid_request', state: 's1', iss: origin });

    const { challenge } = pkce();
    const denied = await asOwner('POST', '/api/oauth/consent', {
      ...query,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      decision: 'deny',
      scopes: ['read'],
      workspaceId: owner.workspaceId,
    });
    expect(new URL(denied.json().data.redirectTo).searchParams.get('error')).toBe('access_denied');
  });

  it('exchanges a code once, only with its verifier, its client, its redirect URI and its resource', async () => {
    const clientId = String((await register()).body.client_id);
    const { verifier, challenge } = pkce();
    const form = {
      grant_type: 'authorization_code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    };

    const wrongVerifier = await token({
      ...form,
      code: await codeFor(clientId, challenge),
      code_verifier: pkce().verifier,
    });
    expect(((await wrongVerifier.json()) as { error: string }).error).toBe('invalid_grant');

    const wrongResource = await token({
      ...form,
      code: await codeFor(clientId, challenge),
      resource: 'https://other.example/mcp',
    });
    expect(((await wrongResource.json()) as { error: string }).error).toBe('invalid_target');

    // Two exchanges of one code at once: exactly one gets tokens.
    const code = await codeFor(clientId, challenge);
    const both = await Promise.all([token({ ...form, code }), token({ ...form, code })]);
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const won = (await both.find((answer) => answer.status === 200)!.json()) as Record<string, string>;
    expect(won).toMatchObject({ token_type: 'Bearer', scope: 'read' });
    expect(both.find((answer) => answer.status === 200)!.headers.get('cache-control')).toBe('no-store');

    // The access token is for the MCP endpoint only: the REST API refuses it.
    const rest = await t.app.inject({
      method: 'GET',
      url: '/api/rules',
      headers: { authorization: `Bearer ${won.access_token}` },
    });
    expect(rest.statusCode).toBe(401);
  });

  it('rotates the refresh token: the old one and the old access token stop working', async () => {
    const clientId = String((await register()).body.client_id);
    const { verifier, challenge } = pkce();
    const first = (await (
      await token({
        grant_type: 'authorization_code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        code: await codeFor(clientId, challenge),
      })
    ).json()) as Record<string, string>;
    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: first.refresh_token!,
    });
    expect(refreshed.status).toBe(200);
    const second = (await refreshed.json()) as Record<string, string>;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const reused = await token({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: first.refresh_token!,
    });
    expect(((await reused.json()) as { error: string }).error).toBe('invalid_grant');
    const mcp = (bearer: string) =>
      fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      });
    expect((await mcp(first.access_token!)).status).toBe(401);
    expect((await mcp(second.access_token!)).status).toBe(200);
  });

  it('refuses an unknown grant type, a parameter given twice, and a body that is no form', async () => {
    expect(((await (await token({ grant_type: 'password' })).json()) as { error: string }).error).toBe(
      'unsupported_grant_type',
    );
    const twice = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=a&code=b',
    });
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { error: string }).error).toBe('invalid_request');
    const json = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code: 1 }),
    });
    expect(json.status).toBe(400);
  });
});
