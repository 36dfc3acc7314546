import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../test/fixtures.ts';
import { createSandbox } from './create-sandbox.ts';
import { adsManagerCookie } from './http/ads-manager-access.ts';
import { BAD_WORLD_HINT } from './http/plugin.ts';
import { startSandboxServer } from './http/server.ts';
import { signWorldHint } from './world/world-key.ts';
import { statusAt } from './world/world.ts';

const REDIRECT = 'https://app.example.com/ad-accounts/callback';
const SCOPES = ['ads_read', 'ads_management', 'business_management'];
const WORKSPACE_A = '6f1c2a9e-3b7d-4e21-9a0f-0c5d8e7b1a11';
const WORKSPACE_B = 'c2d94b18-8a3e-4f67-b5c1-7e9a2f0d3b22';

let fixture: Fixture;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-worlds-'));
  fixture = await startFixture({ stateFile: join(dir, 'state.json') });
});
afterAll(async () => {
  await fixture.close();
  rmSync(dir, { recursive: true, force: true });
});

const dialogUrl = (hint?: string) => {
  const url = new URL(fixture.client().getDialogUrl({ redirectUri: REDIRECT, state: 's', scopes: SCOPES }));
  if (hint !== undefined) url.searchParams.set('sandbox_world', hint);
  return url.toString();
};

/** Through the consent page as a browser does: its form, Allow, then the code exchange; returns a long token. */
async function connect(hint?: string): Promise<string> {
  const html = await (await fetch(dialogUrl(hint))).text();
  const fields = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(match[1] ?? '', (match[2] ?? '').replaceAll('&#38;', '&'));
  }
  fields.set('decision', 'allow');
  const answer = await fetch(`${fixture.url}/v27.0/dialog/oauth`, { method: 'POST', body: fields, redirect: 'manual' });
  const code = new URL(answer.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const client = fixture.client();
  const short = await client.exchangeCode({ code, redirectUri: REDIRECT });
  return (await client.exchangeLongLivedToken(short.accessToken)).accessToken;
}

/** A Graph call with its proof, answering status and body as Meta sends them. */
async function graph(token: string, method: 'GET' | 'POST', path: string, params: Record<string, string> = {}) {
  const query = new URLSearchParams({
    access_token: token,
    appsecret_proof: fixture.sandbox.tokens.appSecretProof(token),
    ...params,
  });
  const response = await fetch(`${fixture.url}/v27.0/${path}${method === 'GET' ? `?${query}` : ''}`, {
    method,
    ...(method === 'POST' ? { body: query } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const hintA = () => signWorldHint(fixture.sandbox.appSecret, WORKSPACE_A);
const hintB = () => signWorldHint(fixture.sandbox.appSecret, WORKSPACE_B);

describe('a sandbox world per world key', () => {
  it('builds only the default world until a key is used', () => {
    const sandbox = createSandbox();
    expect(sandbox.builtWorlds).toEqual(['']);
    sandbox.issueToken();
    expect(sandbox.builtWorlds).toEqual(['']);
  });

  it('shows each world its own users, and each connection its own ad accounts: ids and names disjoint', async () => {
    const pageA = await (await fetch(dialogUrl(hintA()))).text();
    const pageB = await (await fetch(dialogUrl(hintB()))).text();
    const personaIds = (html: string) => [...html.matchAll(/<option value="(\d+)"/g)].map((match) => match[1]);
    expect(personaIds(pageA)).toHaveLength(2);
    expect(personaIds(pageA)).not.toEqual(expect.arrayContaining([personaIds(pageB)[0]]));

    const client = fixture.client();
    const accounts = async (token: string) => client.listAdAccounts(token);
    const a = await accounts(await connect(hintA()));
    const b = await accounts(await connect(hintB()));
    const shared = await accounts(await connect());
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBe(a.length);
    const pairs: [typeof a, typeof a][] = [
      [a, b],
      [a, shared],
      [b, shared],
    ];
    for (const [one, other] of pairs) {
      const ids = new Set(other.map((account) => account.id));
      const names = new Set(other.map((account) => account.name));
      expect(one.filter((account) => ids.has(account.id))).toEqual([]);
      expect(one.filter((account) => names.has(account.name))).toEqual([]);
    }
    // The same markets as the default world, so every workspace meets the same cases.
    expect(a.map((account) => account.currency).sort()).toEqual(shared.map((account) => account.currency).sort());
    // The default world is the one it always was.
    expect(shared.map((account) => account.id)).toEqual(
      fixture.sandbox.personas[0]?.accountIds.map((id) => `act_${id}`),
    );
  });

  it("answers another world's ids as Meta answers an object the token cannot see, for reads and writes", async () => {
    const tokenA = await connect(hintA());
    const tokenB = await connect(hintB());
    const worldA = fixture.sandbox.worldRuntime(WORKSPACE_A).world;
    const account = [...worldA.accounts.values()][0]!;
    const campaign = worldA.campaignsOf(account)[0]!;
    const adSet = worldA.adSetsOf(campaign)[0]!;
    expect((await graph(tokenA, 'GET', campaign.id, { fields: 'name' })).body).toMatchObject({ name: campaign.name });

    const before = fixture.sandbox.worldRuntime(WORKSPACE_A).mutations.length;
    const attempts = [
      await graph(tokenB, 'GET', campaign.id, { fields: 'name' }),
      await graph(tokenB, 'GET', `act_${account.id}`, { fields: 'name' }),
      await graph(tokenB, 'GET', `act_${account.id}/campaigns`),
      await graph(tokenB, 'GET', `${adSet.id}/insights`),
      await graph(tokenB, 'POST', adSet.id, { status: 'PAUSED' }),
      await graph(tokenB, 'POST', campaign.id, { status: 'PAUSED' }),
    ];
    for (const attempt of attempts) {
      expect(attempt.status).toBe(400);
      expect(attempt.body.error).toMatchObject({ code: 100, error_subcode: 33, type: 'GraphMethodException' });
      expect(JSON.stringify(attempt.body)).toMatch(/does not exist, cannot be loaded due to missing permissions/);
    }
    // Inside a batch too: each item runs in its own token's world.
    const batch = await graph(tokenB, 'POST', '', {
      batch: JSON.stringify([{ method: 'POST', relative_url: adSet.id, body: 'status=PAUSED' }]),
      include_headers: 'false',
    });
    const [item] = batch.body as unknown as { code: number; body: string }[];
    expect(item?.code).toBe(400);
    expect(JSON.parse(item?.body ?? '{}')).toMatchObject({ error: { code: 100, error_subcode: 33 } });
    expect(fixture.sandbox.worldRuntime(WORKSPACE_A).mutations.length).toBe(before);
    expect(statusAt(adSet.statusLog, fixture.clock.now())).toBe('ACTIVE');

    // A's own token writes its world, and nothing else moves.
    expect((await graph(tokenA, 'POST', adSet.id, { status: 'PAUSED' })).body).toEqual({ success: true });
    expect(fixture.sandbox.worldRuntime(WORKSPACE_A).mutations.at(-1)).toMatchObject({ objectId: adSet.id });
    expect(fixture.sandbox.worldRuntime(WORKSPACE_B).mutations).toEqual([]);
    expect(fixture.sandbox.mutations).toEqual([]);

    // debug_token names the input token's own world's accounts, whoever asks.
    const debug = await fixture.client().debugToken(tokenB);
    const targets = JSON.stringify(debug);
    expect(targets).not.toContain(account.id);
    expect(targets).toContain(fixture.sandbox.worldRuntime(WORKSPACE_B).personas[0]!.accountIds[0]);
  });

  it('refuses a forged or altered world hint with a clear page, on the dialog and on its form', async () => {
    const good = hintA();
    const [, sig] = good.split('.');
    for (const bad of [
      `${WORKSPACE_B}.${sig}`,
      `${WORKSPACE_A}.${'A'.repeat(sig!.length)}`,
      WORKSPACE_A,
      `${WORKSPACE_A}.`,
      'not a key.abc',
      signWorldHint('another-secret', WORKSPACE_A),
    ]) {
      const response = await fetch(dialogUrl(bad));
      expect(response.status, bad).toBe(400);
      const html = await response.text();
      expect(html).toContain(BAD_WORLD_HINT.slice(0, 40));
      expect(html).not.toContain('<form');
      const post = await fetch(`${fixture.url}/v27.0/dialog/oauth`, {
        method: 'POST',
        body: new URLSearchParams({
          client_id: fixture.sandbox.appId,
          redirect_uri: REDIRECT,
          scope: SCOPES.join(','),
          decision: 'allow',
          sandbox_world: bad,
        }),
        redirect: 'manual',
      });
      expect(post.status).toBe(400);
      expect(post.headers.get('location')).toBeNull();
    }
  });

  it('opens the Ads Manager page of a world account in that world, and edits there', async () => {
    const world = fixture.sandbox.worldRuntime(WORKSPACE_B);
    const account = world.world.account(world.personas[0]!.accountIds[0]!)!;
    const cookie = await adsManagerCookie(fixture.sandbox.adsManager.link(`${fixture.url}/adsmanager`, account.id));
    const html = await (await fetch(`${fixture.url}/adsmanager?act=${account.id}`, { headers: { cookie } })).text();
    expect(html).toContain(`<h1>${account.name}</h1>`);
    const campaign = world.world.campaignsOf(account)[0]!;
    expect(html).toContain(campaign.id);
    const edit = await fetch(`${fixture.url}/adsmanager/edit`, {
      method: 'POST',
      body: new URLSearchParams({ act: account.id, id: campaign.id, status: 'PAUSED', name: 'Colleague' }),
      headers: { cookie, origin: new URL(fixture.url).origin },
      redirect: 'manual',
    });
    expect(edit.status).toBe(303);
    expect(world.mutations.at(-1)).toMatchObject({ objectId: campaign.id, status: 'PAUSED' });
    expect(fixture.sandbox.mutations).toEqual([]);
  });

  it("keeps every world's writes through a restart, and builds the same world from the same key", () => {
    const stateFile = join(dir, 'restart.json');
    const first = createSandbox({ stateFile, now: fixture.clock.date, appSecret: 'kept' });
    const world = first.worldRuntime(WORKSPACE_A);
    const account = world.world.account(world.personas[0]!.accountIds[0]!)!;
    const campaign = world.world.campaignsOf(account)[0]!;
    world.recordMutation({ at: first.now(), objectId: campaign.id, status: 'PAUSED' });
    first.worldRuntime(WORKSPACE_B);

    const second = createSandbox({ stateFile, now: fixture.clock.date, appSecret: 'kept' });
    expect(second.builtWorlds).toEqual(['']);
    // The Ads Manager finds the account's world from its id alone, before anything else touched it.
    const again = second.worldOfAccount(`act_${account.id}`);
    expect(again?.worldKey).toBe(WORKSPACE_A);
    expect(again?.world.account(account.id)?.name).toBe(account.name);
    expect([...again!.world.campaigns.keys()]).toEqual([...world.world.campaigns.keys()]);
    expect(statusAt(again!.world.campaigns.get(campaign.id)!.statusLog, second.now())).toBe('PAUSED');
    expect(second.worldOfAccount(second.worldRuntime(WORKSPACE_B).personas[1]!.accountIds[0]!)?.worldKey).toBe(
      WORKSPACE_B,
    );
    expect(second.worldOfAccount('9999999999999999')).toBeUndefined();
  });

  it('keeps a bounded number of worlds built, and rebuilds a dropped one with its writes', () => {
    const sandbox = createSandbox({ now: fixture.clock.date, maxBuiltWorlds: 2 });
    const first = sandbox.worldRuntime('w-one');
    const campaign = [...first.world.campaigns.values()][0]!;
    first.recordMutation({ at: sandbox.now(), objectId: campaign.id, status: 'PAUSED' });
    sandbox.worldRuntime('w-two');
    sandbox.worldRuntime('w-three');
    expect(sandbox.builtWorlds).toEqual(['', 'w-two', 'w-three']);
    const again = sandbox.worldRuntime('w-one');
    expect(again).not.toBe(first);
    expect(again.mutations).toMatchObject([{ objectId: campaign.id, status: 'PAUSED' }]);
    expect(statusAt(again.world.campaigns.get(campaign.id)!.statusLog, sandbox.now())).toBe('PAUSED');
    expect(sandbox.builtWorlds).toEqual(['', 'w-three', 'w-one']);
  });

  it('resets the default world over /__sandbox/reset, or the world named by ?world=', async () => {
    const running = await startSandboxServer({ controlRoutes: true, now: fixture.clock.date });
    try {
      const { sandbox } = running;
      const pause = (world: ReturnType<typeof sandbox.worldRuntime>) =>
        world.recordMutation({
          at: sandbox.now(),
          objectId: [...world.world.campaigns.keys()][0]!,
          status: 'PAUSED',
        });
      pause(sandbox.defaultWorld);
      pause(sandbox.worldRuntime(WORKSPACE_A));
      expect((await fetch(`${running.url}/__sandbox/reset`, { method: 'POST' })).status).toBe(204);
      expect(sandbox.mutations).toEqual([]);
      expect(sandbox.worldRuntime(WORKSPACE_A).mutations).toHaveLength(1);
      const named = await fetch(`${running.url}/__sandbox/reset?world=${WORKSPACE_A}`, { method: 'POST' });
      expect(named.status).toBe(204);
      expect(sandbox.worldRuntime(WORKSPACE_A).mutations).toEqual([]);
      expect((await fetch(`${running.url}/__sandbox/reset?world=a%20b`, { method: 'POST' })).status).toBe(400);
    } finally {
      await running.close();
    }
  });

  it('loads a state file of one world (version 1) as the default world', () => {
    const stateFile = join(dir, 'v1.json');
    const sandbox = createSandbox({ now: fixture.clock.date });
    const campaign = [...sandbox.world.campaigns.values()][0]!;
    writeFileSync(
      stateFile,
      JSON.stringify({
        version: 1,
        anchorDate: new Date(sandbox.world.anchor).toISOString().slice(0, 10),
        mutations: [{ at: new Date(sandbox.now()).toISOString(), objectId: campaign.id, status: 'PAUSED' }],
      }),
    );
    const loaded = createSandbox({ stateFile, now: fixture.clock.date });
    expect(loaded.mutations).toMatchObject([{ objectId: campaign.id, status: 'PAUSED' }]);
    expect(statusAt(loaded.world.campaigns.get(campaign.id)!.statusLog, loaded.now())).toBe('PAUSED');
  });
});
