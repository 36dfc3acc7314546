import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { MetaClient } from '@adpilot/meta';
import { TokenService } from '../auth/tokens.ts';
import { ALL_SCOPES, createSandbox } from '../create-sandbox.ts';
import { startSandboxServer } from './server.ts';

/** The secret every sandbox used to sign with before secrets were made per instance. */
const OLD_FIXED_SECRET = 'sandbox-secret';

describe('sandbox secrets', () => {
  it('generates a different secret per instance unless one is given', () => {
    const first = createSandbox();
    const second = createSandbox();
    expect(first.appSecret).not.toBe(second.appSecret);
    expect(first.appSecret.length).toBeGreaterThanOrEqual(32);
    expect(createSandbox({ appSecret: 'kept-secret-from-data-dir' }).appSecret).toBe('kept-secret-from-data-dir');
  });

  it('refuses a forged token: signed with the old fixed secret or with another instance’s secret', async () => {
    const running = await startSandboxServer({ requireAppSecretProof: false });
    try {
      const { sandbox } = running;
      const persona = sandbox.personas[0]!;
      const campaignId = sandbox.world.account(persona.accountIds[0] ?? '')?.campaignIds[0] ?? '';
      const forgedOld = new TokenService(sandbox.appId, OLD_FIXED_SECRET).issueUser(
        persona.id,
        ALL_SCOPES,
        sandbox.now(),
        3600,
      );
      const forgedOther = createSandbox().issueToken(persona.id);
      for (const forged of [forgedOld, forgedOther]) {
        const pause = await fetch(`${running.url}/v27.0/${campaignId}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${forged}` },
          body: new URLSearchParams({ status: 'PAUSED' }),
        });
        expect(pause.status).toBe(400);
        expect(((await pause.json()) as { error: { code: number } }).error.code).toBe(190);
      }
      expect(sandbox.mutations).toHaveLength(0);
    } finally {
      await running.close();
    }
  });

  it('in strict mode a forger cannot even produce the proof', async () => {
    const running = await startSandboxServer();
    try {
      const { sandbox } = running;
      const forged = new TokenService(sandbox.appId, OLD_FIXED_SECRET).issueUser(
        sandbox.personas[0]!.id,
        ALL_SCOPES,
        sandbox.now(),
        3600,
      );
      const client = new MetaClient({ graphBaseUrl: running.url, appId: sandbox.appId, appSecret: OLD_FIXED_SECRET });
      await expect(client.listAdAccounts(forged)).rejects.toMatchObject({
        code: 100,
        message: 'Invalid appsecret_proof provided in the API argument',
      });
    } finally {
      await running.close();
    }
  });
});

describe('control routes', () => {
  it('are not mounted unless enabled: faults and reset cannot be reached over HTTP', async () => {
    const running = await startSandboxServer();
    try {
      const { sandbox } = running;
      const token = sandbox.issueToken();
      const campaignId = sandbox.world.account(sandbox.personas[0]?.accountIds[0] ?? '')?.campaignIds[0] ?? '';
      const client = new MetaClient({ graphBaseUrl: running.url, appId: sandbox.appId, appSecret: sandbox.appSecret });
      await client.updateStatus(token, campaignId, 'PAUSED');
      const faults = await fetch(`${running.url}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ serverError: { count: 5 } }),
      });
      const reset = await fetch(`${running.url}/__sandbox/reset`, { method: 'POST' });
      const stats = await fetch(`${running.url}/__sandbox/stats`);
      for (const answer of [faults, reset, stats]) expect(answer.status).toBe(400);
      expect(sandbox.faults.current).toEqual({});
      expect(sandbox.mutations).toHaveLength(1);
    } finally {
      await running.close();
    }
  });
});

describe('request logging', () => {
  it('never writes client_secret, fb_exchange_token, the code or tokens, whatever the host logs', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const sandbox = createSandbox();
    const host = Fastify({ logger: { level: 'info', stream } });
    await host.register(sandbox.plugin, { prefix: '/sandbox/meta' });
    await host.listen({ host: '127.0.0.1', port: 0 });
    try {
      const base = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}/sandbox/meta`;
      const client = new MetaClient({ graphBaseUrl: base, appId: sandbox.appId, appSecret: sandbox.appSecret });
      const redirectUri = 'https://app.example.com/cb';
      const code = sandbox.codes.issue(
        { personaId: sandbox.personas[0]!.id, scopes: ALL_SCOPES },
        redirectUri,
        sandbox.now(),
      );
      const short = await client.exchangeCode({ code, redirectUri });
      const long = await client.exchangeLongLivedToken(short.accessToken);
      await client.debugToken(long.accessToken);
      const output = lines.join('');
      expect(output).toContain('incoming request');
      expect(output).toContain('client_secret=REDACTED');
      expect(output).toContain('fb_exchange_token=REDACTED');
      for (const secret of [sandbox.appSecret, code, short.accessToken, long.accessToken]) {
        expect(output).not.toContain(secret);
        expect(output).not.toContain(encodeURIComponent(secret));
      }
    } finally {
      await host.close();
    }
  });
});
