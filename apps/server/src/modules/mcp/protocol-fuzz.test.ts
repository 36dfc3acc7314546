import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, listenOn } from '../../test/mcp-client.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

/**
 * The endpoints outside /api speak their own protocols (JSON-RPC over Streamable HTTP, OAuth), so the API document's
 * fuzzer does not reach them: this sends them malformed requests of every kind, with and without a valid token, and
 * fails on any 5xx. Bad input is the client's error, never ours.
 */
let t: TestApp;
let origin: string;
let token: string;

beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp({ RATE_LIMIT_MAX: '0', PUBLIC_URL: `http://127.0.0.1:${port}` });
  origin = await listenOn(t.app, port);
  const owner = await registerUser(t.app);
  const minted = await t.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: owner.auth,
    payload: { name: 'Fuzzed', scopes: ['write'] },
  });
  token = minted.json().data.token;
});
afterAll(() => t.close());

const JSON_BODIES = [
  '',
  'null',
  '[]',
  '{',
  '"text"',
  '42',
  '{"jsonrpc":"2.0"}',
  '{"jsonrpc":"2.0","id":1}',
  '{"jsonrpc":"2.0","id":1,"method":"initialize"}',
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":7}}',
  '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/call","params":{"name":"list_rules"}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":["x"],"arguments":"y"}}',
  '[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}},{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}]',
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 'x'.repeat(10_000) } }),
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x'.repeat(5000), arguments: {} } }),
  '{"jsonrpc":"2.0","id":1,"method":"\u0000"}',
];

describe('malformed requests to the protocol endpoints', () => {
  it('never answer /mcp with a 5xx, with a token or without', async () => {
    const wrong: string[] = [];
    const headerSets: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${token}` },
      { authorization: `Bearer ${token}`, 'mcp-session-id': 'not-a-session' },
      { authorization: `Bearer ${token}`, 'mcp-protocol-version': '1999-01-01' },
      { authorization: 'Bearer adpo_' + 'x'.repeat(300) },
      { authorization: 'Basic Zm9vOmJhcg==' },
    ];
    const post = async (headers: Record<string, string>, body: string) => {
      const response = await fetch(`${origin}/mcp`, { method: 'POST', headers, body });
      if (response.status >= 500) wrong.push(`${response.status} ${JSON.stringify(headers)} ${body.slice(0, 60)}`);
      await response.body?.cancel();
    };
    const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const headers of headerSets) for (const body of JSON_BODIES) await post({ ...headers, ...json }, body);
    // What the client says it sends and accepts, each wrong once.
    const variants: Record<string, string>[] = [
      { 'content-type': 'text/plain', accept: json.accept },
      { 'content-type': 'application/json', accept: 'text/html' },
      { 'content-type': 'application/json' },
      { 'content-type': 'application/x-www-form-urlencoded', accept: json.accept },
    ];
    for (const variant of variants)
      for (const body of JSON_BODIES.slice(0, 9)) await post({ authorization: `Bearer ${token}`, ...variant }, body);
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH'])
      for (const headers of headerSets) {
        const response = await fetch(`${origin}/mcp`, { method, headers: { ...headers, accept: 'text/event-stream' } });
        if (response.status >= 500) wrong.push(`${method} ${response.status} ${JSON.stringify(headers)}`);
        await response.body?.cancel();
      }
    expect(wrong).toEqual([]);
  });

  it('never answer the OAuth endpoints with a 5xx', async () => {
    const wrong: string[] = [];
    const forms = [
      '',
      'grant_type=authorization_code',
      'grant_type=authorization_code&code=x&code_verifier=y&client_id=z&redirect_uri=http://a',
      'grant_type=refresh_token&refresh_token=adpr_x&client_id=not-a-uuid',
      'grant_type=refresh_token&refresh_token=&client_id=',
      `grant_type=authorization_code&code=${'x'.repeat(7000)}`,
      '%%%',
      'grant_type=authorization_code&resource=%00',
    ];
    for (const body of forms) {
      const response = await fetch(`${origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      if (response.status >= 500) wrong.push(`token ${response.status} ${body.slice(0, 60)}`);
    }
    for (const body of [
      ...JSON_BODIES,
      '{"redirect_uris":["javascript:alert(1)"]}',
      '{"redirect_uris":"x"}',
      '{"redirect_uris":[1]}',
    ]) {
      const response = await fetch(`${origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      if (response.status >= 500) wrong.push(`register ${response.status} ${body.slice(0, 60)}`);
    }
    for (const query of [
      '',
      'client_id=x',
      'client_id=00000000-0000-4000-8000-000000000000&redirect_uri=%00',
      'client_id=' + 'a'.repeat(3000),
      'redirect_uri=https://a&client_id=00000000-0000-4000-8000-000000000000&response_type=token',
      'client_id[]=a&client_id[]=b',
    ]) {
      const response = await fetch(`${origin}/oauth/authorize?${query}`, { redirect: 'manual' });
      if (response.status >= 500) wrong.push(`authorize ${response.status} ${query.slice(0, 60)}`);
    }
    expect(wrong).toEqual([]);
  });
});
