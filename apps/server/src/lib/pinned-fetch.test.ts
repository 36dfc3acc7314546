import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookAddressPolicy } from '../modules/notifications/webhook-address.ts';
import { AddressRefusedError, pinnedFetch } from './pinned-fetch.ts';

// Every request of this file goes to 127.0.0.1: the names below exist only in the resolvers handed in.
let server: Server;
let port: number;
const seen: { method: string; path: string; host: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        path: request.url ?? '',
        host: request.headers.host ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(request.url === '/gone' ? 404 : 200, { 'content-type': 'application/json', 'x-seen': 'yes' });
      response.end(JSON.stringify({ ok: request.url !== '/gone' }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});
beforeEach(() => {
  seen.length = 0;
});

/** The policy with its own DNS: every name answers 127.0.0.1, and each look-up is counted. */
function policyAnsweringLoopback(allowed: string[]) {
  const lookups: string[] = [];
  const policy = new WebhookAddressPolicy(allowed, (host) => {
    lookups.push(host);
    return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
  });
  return { policy, lookups };
}

describe('a pinned fetch', () => {
  it('connects to the address the policy checked, resolving the name again at every request', async () => {
    const { policy, lookups } = policyAnsweringLoopback(['ai.example.test']);
    const guarded = pinnedFetch((url) => policy.resolve(url));
    const answer = await guarded(`http://ai.example.test:${port}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
      body: JSON.stringify({ model: 'm' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-seen')).toBe('yes');
    expect(await answer.json()).toEqual({ ok: true });
    const missing = await guarded(`http://ai.example.test:${port}/gone`);
    expect(missing.status).toBe(404);
    expect(seen).toEqual([
      { method: 'POST', path: '/v1/chat/completions', host: `ai.example.test:${port}`, body: '{"model":"m"}' },
      { method: 'GET', path: '/gone', host: `ai.example.test:${port}`, body: '' },
    ]);
    expect(lookups).toEqual(['ai.example.test', 'ai.example.test']);
  });

  it('refuses a name that resolves to a private address at the call, before sending anything', async () => {
    // Saved as a public-looking name (accepted without resolving), it answers loopback when called: refused.
    const { policy, lookups } = policyAnsweringLoopback([]);
    expect(policy.acceptsUrl(`http://rebound.example.com:${port}/v1`)).toBe(true);
    const guarded = pinnedFetch((url) => policy.resolve(url));
    const refused = await guarded(`http://rebound.example.com:${port}/v1/models`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AddressRefusedError);
    expect((refused as AddressRefusedError).host).toBe(`rebound.example.com:${port}`);
    expect(lookups).toEqual(['rebound.example.com']);
    expect(seen).toEqual([]);
  });

  it('refuses literal loopback, link-local and metadata addresses without a look-up', async () => {
    const { policy, lookups } = policyAnsweringLoopback([]);
    const guarded = pinnedFetch((url) => policy.resolve(url));
    for (const url of [
      `http://127.0.0.1:${port}/v1/models`,
      `http://[::1]:${port}/v1/models`,
      'http://169.254.169.254/latest/meta-data/',
      `http://[::ffff:127.0.0.1]:${port}/v1/models`,
    ]) {
      await expect(guarded(url), url).rejects.toBeInstanceOf(AddressRefusedError);
    }
    expect(lookups).toEqual([]);
    expect(seen).toEqual([]);
  });
});
