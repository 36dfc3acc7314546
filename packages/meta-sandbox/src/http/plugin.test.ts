import type { AddressInfo } from 'node:net';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetaClient } from '@adpilot/meta';
import { createSandbox, type MetaSandbox } from '../create-sandbox.ts';
import { adsManagerCookie } from './ads-manager-access.ts';

let host: FastifyInstance;
let sandbox: MetaSandbox;
let base: string;
let token: string;

beforeAll(async () => {
  sandbox = createSandbox({ now: () => new Date('2026-03-10T03:00:00Z'), controlRoutes: true });
  host = Fastify();
  // The host app has its own form parser and routes; the sandbox must live beside them untouched.
  await host.register(formbody);
  host.get('/api/health', () => ({ ok: true }));
  await host.register(sandbox.plugin, { prefix: '/sandbox/meta' });
  await host.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}/sandbox/meta`;
  token = sandbox.issueToken();
});
afterAll(() => host.close());

const proof = (): string => sandbox.tokens.appSecretProof(token);
const graph = (path: string, init: RequestInit = {}) =>
  fetch(`${base}/v27.0/${path}${path.includes('?') ? '&' : '?'}appsecret_proof=${proof()}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...init.headers },
  });

describe('mounted in a host app', () => {
  it('serves the Graph API under the prefix with paging links that keep it', async () => {
    const client = new MetaClient({
      graphBaseUrl: base,
      dialogBaseUrl: base,
      appId: sandbox.appId,
      appSecret: sandbox.appSecret,
      pageSize: 1,
    });
    expect(await client.listAdAccounts(token)).toHaveLength(3);
    const page = (await (await graph('me/adaccounts?limit=1')).json()) as { paging: { next: string } };
    expect(page.paging.next.startsWith(`${base}/v27.0/me/adaccounts?`)).toBe(true);
    expect((await fetch(`${base.replace('/sandbox/meta', '')}/api/health`)).status).toBe(200);
  });

  it('accepts the token as a query, form or JSON parameter and sends usage headers', async () => {
    const query = await fetch(`${base}/v24.0/me?access_token=${encodeURIComponent(token)}&appsecret_proof=${proof()}`);
    expect(await query.json()).toMatchObject({ name: 'Sandbox Store Owner' });
    expect(JSON.parse(query.headers.get('x-app-usage') ?? '{}')).toHaveProperty('call_count');

    const adId = [...sandbox.world.ads.keys()][0] ?? '';
    const form = await fetch(`${base}/v27.0/${adId}`, {
      method: 'POST',
      body: new URLSearchParams({ access_token: token, appsecret_proof: proof(), status: 'PAUSED' }),
    });
    expect(await form.json()).toEqual({ success: true });
    const json = await fetch(`${base}/v27.0/${adId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: token, appsecret_proof: proof(), status: 'ACTIVE' }),
    });
    expect(await json.json()).toEqual({ success: true });
    expect(json.headers.get('x-ad-account-usage')).toContain('acc_id_util_pct');
    expect(json.headers.get('x-business-use-case-usage')).toContain('ads_management');

    const insights = await graph(
      `act_${sandbox.personas[0]?.accountIds[0]}/insights?date_preset=yesterday&fields=spend,actions`,
    );
    expect(insights.headers.get('x-fb-ads-insights-throttle')).toContain('acc_id_util_pct');
    const body = (await insights.json()) as {
      data: { spend: string; actions: { action_type: string; value: string }[] }[];
    };
    expect(body.data[0]?.spend).toMatch(/^\d+(\.\d{1,2})?$/);
    expect(typeof body.data[0]?.actions[0]?.value).toBe('string');
  });

  it('answers Graph errors for unknown objects, unknown fields and missing tokens', async () => {
    const unknown = await graph('123456/campaigns');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: { code: 100, error_subcode: 33, type: 'GraphMethodException' },
    });
    const field = await graph(`act_${sandbox.personas[0]?.accountIds[0]}?fields=name,secret_sauce`);
    expect(((await field.json()) as { error: { message: string } }).error.message).toContain('secret_sauce');
    const anonymous = await fetch(`${base}/v27.0/me`);
    expect(((await anonymous.json()) as { error: { code: number } }).error.code).toBe(104);
  });

  it('switches faults and reads call counts over HTTP', async () => {
    const set = await fetch(`${base}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rateLimit: { count: 1, regainMinutes: 3 } }),
    });
    expect(set.status).toBe(200);
    const limited = await graph('me/adaccounts');
    expect(((await limited.json()) as { error: { code: number } }).error.code).toBe(80004);
    expect(JSON.parse(limited.headers.get('x-business-use-case-usage') ?? '{}')).toEqual({});
    expect((await graph('me/adaccounts')).status).toBe(200);

    const rejected = await fetch(`${base}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"bogus":1}',
    });
    expect(rejected.status).toBe(400);

    await fetch(`${base}/__sandbox/stats/reset`, { method: 'POST' });
    await graph('me');
    const stats = (await (await fetch(`${base}/__sandbox/stats`)).json()) as {
      total: number;
      byKind: Record<string, number>;
    };
    expect(stats).toMatchObject({ total: 1, byKind: { me: 1 } });
  });

  it('shows a read-only ads manager page for an account', async () => {
    const accountId = sandbox.personas[0]?.accountIds[0] ?? '';
    const cookie = await adsManagerCookie(sandbox.adsManager.link(`${base}/adsmanager`, accountId));
    const response = await fetch(`${base}/adsmanager?act=${accountId}`, { headers: { cookie } });
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('Siam Living Store');
    expect(html).toContain('THB');
    const unknown = await adsManagerCookie(sandbox.adsManager.link(`${base}/adsmanager`, 'act_1'));
    expect((await fetch(`${base}/adsmanager?act=act_1`, { headers: { cookie: unknown } })).status).toBe(404);
  });
});
