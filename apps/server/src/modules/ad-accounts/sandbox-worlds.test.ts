import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adAccounts } from '@adpilot/db';
import { MetaApiError, MetaClient } from '@adpilot/meta';
import { adsManagerCookie, createSandbox } from '@adpilot/meta-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerConsent } from '../../test/meta-sandbox.ts';
import { choosePlan, createSandboxTestApp, registerUser, type SandboxTestApp } from '../../test/test-app.ts';

const APP_SECRET = 'sandbox-worlds-test-secret';

let t: SandboxTestApp;
let dir: string;
let stateFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-worlds-'));
  stateFile = join(dir, 'sandbox-state.json');
  // As the server runs it: a kept secret and a state file, and a world per workspace.
  t = await createSandboxTestApp({}, {}, { worlds: true, appSecret: APP_SECRET, stateFile });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

type Session = Awaited<ReturnType<typeof registerUser>>;
interface Card {
  id: string;
  facebook_account_id: string;
  facebook_account_name: string;
  ads_manager_url: string;
}

const call = (session: Session, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/ad-accounts${url}`, headers: session.auth, ...(payload ? { payload } : {}) });

async function connect(session: Session): Promise<Card[]> {
  const { authUrl } = (await call(session, 'GET', '/facebook/auth-url')).json().data;
  const back = await answerConsent(authUrl);
  const response = await call(session, 'POST', '/facebook/callback', {
    code: back.searchParams.get('code'),
    state: back.searchParams.get('state'),
  });
  expect(response.statusCode, response.body).toBe(200);
  return (await call(session, 'GET', '/')).json().data as Card[];
}

/** The Meta token AdPilot keeps for a workspace's sandbox connection. */
async function storedToken(workspaceId: string): Promise<string> {
  const [row] = await t.inspect((db) =>
    db.select().from(adAccounts).where(eq(adAccounts.workspaceId, workspaceId)).limit(1),
  );
  return t.secretBox.decrypt(row?.accessTokenEnc ?? '');
}

const client = () =>
  new MetaClient({
    graphBaseUrl: t.sandbox.url,
    appId: t.sandbox.sandbox.appId,
    appSecret: APP_SECRET,
    maxRetries: 0,
    sleep: async () => undefined,
  });

async function graphError(work: Promise<unknown>): Promise<MetaApiError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof MetaApiError)) throw new Error(`expected a Graph error, got ${String(error)}`);
  return error;
}

let a: Session;
let b: Session;
let cardsA: Card[];
let cardsB: Card[];

describe('a sandbox world per workspace', () => {
  beforeAll(async () => {
    a = await registerUser(t.app);
    b = await registerUser(t.app);
    await choosePlan(t.app, a, 'enterprise');
    await choosePlan(t.app, b, 'enterprise');
    cardsA = await connect(a);
    cardsB = await connect(b);
  });

  it('asks the consent dialog for the workspace’s world, signed', async () => {
    const { authUrl } = (await call(a, 'GET', '/facebook/auth-url')).json().data;
    const hint = new URL(authUrl).searchParams.get('sandbox_world') ?? '';
    expect(hint.startsWith(`${a.workspaceId}.`)).toBe(true);
    expect(hint.slice(a.workspaceId.length + 1)).toMatch(/^[\w-]{43}$/);
  });

  it('shows two workspaces disjoint ad accounts: ids and names', async () => {
    expect(cardsA.length).toBeGreaterThanOrEqual(3);
    expect(cardsB).toHaveLength(cardsA.length);
    const idsB = new Set(cardsB.map((card) => card.facebook_account_id));
    const namesB = new Set(cardsB.map((card) => card.facebook_account_name));
    expect(cardsA.filter((card) => idsB.has(card.facebook_account_id))).toEqual([]);
    expect(cardsA.filter((card) => namesB.has(card.facebook_account_name))).toEqual([]);
    // And neither sees the default world every workspace shared before.
    const shared = new Set(t.sandbox.sandbox.world.accounts.keys());
    expect([...cardsA, ...cardsB].filter((card) => shared.has(card.facebook_account_id.replace(/^act_/, '')))).toEqual(
      [],
    );
  });

  it("refuses B's token on A's objects, reading and writing, as Meta refuses an object it hides", async () => {
    const tokenA = await storedToken(a.workspaceId);
    const tokenB = await storedToken(b.workspaceId);
    const act = cardsA[0]!.facebook_account_id;
    const [campaign] = await client().listCampaigns(tokenA, act);
    expect(campaign?.id).toBeDefined();
    const attempts = [
      client().getEntity(tokenB, campaign!.id, ['name']),
      client().getAdAccount(tokenB, act),
      client().listCampaigns(tokenB, act),
      client().updateStatus(tokenB, campaign!.id, 'PAUSED'),
    ];
    for (const attempt of attempts) {
      const error = await graphError(attempt);
      expect(error).toMatchObject({ code: 100, subcode: 33 });
      expect(error.message).toMatch(/does not exist, cannot be loaded due to missing permissions/);
    }
    const world = t.sandbox.sandbox.worldRuntime(a.workspaceId);
    expect(world.mutations.filter((mutation) => mutation.objectId === campaign!.id)).toEqual([]);
  });

  it('refuses a consent dialog whose world hint was altered or forged', async () => {
    const { authUrl } = (await call(a, 'GET', '/facebook/auth-url')).json().data;
    const url = new URL(authUrl);
    const [, sig] = (url.searchParams.get('sandbox_world') ?? '').split('.');
    for (const forged of [`${b.workspaceId}.${sig}`, `${a.workspaceId}.${'x'.repeat(43)}`, b.workspaceId]) {
      url.searchParams.set('sandbox_world', forged);
      const response = await fetch(url);
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(html).toContain('Start connecting again from AdPilot');
      expect(html).not.toContain('<form');
    }
  });

  it('connects nothing from a consent given in another world: the hint removed, or another workspace’s', async () => {
    const before = (await call(a, 'GET', '/')).json().data.length;
    const { authUrl: urlB } = (await call(b, 'GET', '/facebook/auth-url')).json().data;
    const hintB = new URL(urlB).searchParams.get('sandbox_world') ?? '';
    for (const hint of [undefined, hintB]) {
      const { authUrl } = (await call(a, 'GET', '/facebook/auth-url')).json().data;
      const url = new URL(authUrl);
      if (hint === undefined) url.searchParams.delete('sandbox_world');
      else url.searchParams.set('sandbox_world', hint);
      const back = await answerConsent(url.toString());
      const response = await call(a, 'POST', '/facebook/callback', {
        code: back.searchParams.get('code'),
        state: back.searchParams.get('state'),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'INVALID_STATE' });
      expect(response.json().message).toMatch(/another workspace/);
    }
    expect((await call(a, 'GET', '/')).json().data).toHaveLength(before);
  });

  it("opens A's Ads Manager link on A's world", async () => {
    const card = cardsA[0]!;
    const cookie = await adsManagerCookie(card.ads_manager_url);
    const act = new URL(card.ads_manager_url).searchParams.get('act') ?? '';
    const page = await fetch(`${t.sandbox.url}/adsmanager?act=${encodeURIComponent(act)}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(card.facebook_account_name);
    for (const other of cardsB) expect(html).not.toContain(other.facebook_account_name);
    const [campaign] = await client().listCampaigns(await storedToken(a.workspaceId), card.facebook_account_id);
    expect(html).toContain(campaign!.id);
  });

  it("keeps a world's pause through a sandbox restart, by the state file", async () => {
    const tokenA = await storedToken(a.workspaceId);
    const act = cardsA[0]!.facebook_account_id;
    const campaign = (await client().listCampaigns(tokenA, act)).find((item) => item.status === 'ACTIVE');
    expect(campaign).toBeDefined();
    await client().updateStatus(tokenA, campaign!.id, 'PAUSED');

    // A new sandbox on the same state file and secret, as after a restart of the server.
    const restarted = createSandbox({ stateFile, appSecret: APP_SECRET });
    const world = restarted.forToken(tokenA);
    expect(world.worldKey).toBe(a.workspaceId);
    const entity = world.world.findEntity(campaign!.id);
    expect(entity && world.world.effectiveStatus(entity, restarted.now())).toBe('PAUSED');
    // B's world kept nothing of it.
    expect(restarted.forToken(await storedToken(b.workspaceId)).world.findEntity(campaign!.id)).toBeUndefined();
  });
});
