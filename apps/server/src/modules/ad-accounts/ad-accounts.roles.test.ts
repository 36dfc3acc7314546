import { WORKSPACE_HEADER, type WorkspaceRole } from '@adpilot/contracts';
import { oauthStates, workspaceMembers } from '@adpilot/db';
import { adsManagerCookie, type RunningSandbox } from '@adpilot/meta-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerConsent, startTestSandbox } from '../../test/meta-sandbox.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let sandbox: RunningSandbox;

beforeAll(async () => {
  const started = await startTestSandbox();
  sandbox = started.running;
  t = await createTestApp({}, { meta: started.provider, scheduler: { enqueueSync: async () => true } });
});
afterAll(async () => {
  await t.close();
  await sandbox.close();
});

type Session = Awaited<ReturnType<typeof registerUser>>;

/** A new user made a member of `owner`'s workspace with `role`; their requests name that workspace. */
async function memberOf(owner: Session, role: WorkspaceRole) {
  const member = await registerUser(t.app);
  await t.inspect((db) =>
    db.insert(workspaceMembers).values({ workspaceId: owner.workspaceId, userId: member.user.id, role }),
  );
  return { ...member, headers: { ...member.auth, [WORKSPACE_HEADER]: owner.workspaceId } };
}

const statesOf = (workspaceId: string) =>
  t.inspect((db) => db.select().from(oauthStates).where(eq(oauthStates.workspaceId, workspaceId)));

describe('who starts connecting an ad account', () => {
  it('refuses a viewer both ways in, and stores no OAuth state for them', async () => {
    const owner = await registerUser(t.app);
    const viewer = await memberOf(owner, 'viewer');
    for (const [method, url] of [
      ['GET', '/api/ad-accounts/facebook/auth-url'],
      ['POST', '/api/ad-accounts/connect'],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: viewer.headers,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toMatchObject({ success: false, code: 'FORBIDDEN' });
    }
    expect(await statesOf(owner.workspaceId)).toHaveLength(0);
  });

  it('lets an editor start it', async () => {
    const owner = await registerUser(t.app);
    const editor = await memberOf(owner, 'editor');
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/ad-accounts/facebook/auth-url',
      headers: editor.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(await statesOf(owner.workspaceId)).toHaveLength(1);
  });
});

/** Connects the sandbox's accounts to `owner`'s workspace. */
async function connect(owner: Session) {
  const started = await t.app.inject({ method: 'GET', url: '/api/ad-accounts/facebook/auth-url', headers: owner.auth });
  const back = await answerConsent(started.json().data.authUrl);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/ad-accounts/facebook/callback',
    headers: owner.auth,
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  expect(response.statusCode).toBe(200);
}

type Card = { id: string; facebook_account_id: string; ads_manager_url: string | null };
const cards = async (headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url: '/api/ad-accounts', headers })).json().data as Card[];

describe("the sandbox's Ads Manager link", () => {
  let owner: Session;
  let editor: Awaited<ReturnType<typeof memberOf>>;
  let viewer: Awaited<ReturnType<typeof memberOf>>;
  let act: string;
  let campaignId: string;
  const page = (cookie: string) =>
    fetch(`${sandbox.url}/adsmanager?act=${encodeURIComponent(act)}`, { headers: { cookie } });
  const pause = (cookie: string, status = 'PAUSED') =>
    fetch(`${sandbox.url}/adsmanager/edit`, {
      method: 'POST',
      body: new URLSearchParams({ act, id: campaignId, status, name: 'Alice Owner' }),
      headers: { cookie },
      redirect: 'manual',
    });

  beforeAll(async () => {
    owner = await registerUser(t.app, { name: 'Alice Owner' });
    await connect(owner);
    editor = await memberOf(owner, 'editor');
    viewer = await memberOf(owner, 'viewer');
    act = (await cards(owner.auth))[0]!.facebook_account_id;
    const world = sandbox.sandbox.worldOfAccount(act)!;
    const account = world.world.account(act)!;
    campaignId = world.world
      .campaignsOf(account)
      .find(
        (campaign) => world.world.effectiveStatus({ kind: 'campaign', entity: campaign }, world.now()) === 'ACTIVE',
      )!.id;
  });

  it('goes to those who may edit: none for a viewer, on the list and the detail', async () => {
    const [asViewer] = await cards(viewer.headers);
    expect(asViewer?.ads_manager_url).toBeNull();
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/ad-accounts/${asViewer!.id}`,
      headers: viewer.headers,
    });
    expect(detail.json().data.ads_manager_url).toBeNull();
    const [asEditor] = await cards(editor.headers);
    expect(new URL(asEditor!.ads_manager_url!).searchParams.get('sig')).toMatch(/^[\w-]{43}$/);
  });

  it("records an editor's change as theirs, never as the name the form was sent", async () => {
    const [card] = await cards(editor.headers);
    const cookie = await adsManagerCookie(card!.ads_manager_url!);
    expect((await page(cookie)).status).toBe(200);
    expect((await pause(cookie)).status).toBe(303);
    const last = sandbox.sandbox.worldOfAccount(act)!.mutations.at(-1);
    expect(last?.by).toMatchObject({ actorName: editor.user.name, applicationName: 'Ads Manager' });
    expect((await pause(cookie, 'ACTIVE')).status).toBe(303);
  });

  it('stops at once for a member made a viewer, and for a removed one, though the link has hours left', async () => {
    const demoted = await memberOf(owner, 'editor');
    const removed = await memberOf(owner, 'editor');
    const cookies = new Map<string, string>();
    for (const member of [demoted, removed]) {
      const [card] = await cards(member.headers);
      cookies.set(member.user.id, await adsManagerCookie(card!.ads_manager_url!));
      expect((await page(cookies.get(member.user.id)!)).status).toBe(200);
    }
    const unusedLink = (await cards(removed.headers))[0]!.ads_manager_url!;
    const members = `/api/workspaces/${owner.workspaceId}/members`;
    const demote = await t.app.inject({
      method: 'PATCH',
      url: `${members}/${demoted.user.id}`,
      headers: owner.auth,
      payload: { role: 'viewer' },
    });
    expect(demote.statusCode).toBe(200);
    const remove = await t.app.inject({ method: 'DELETE', url: `${members}/${removed.user.id}`, headers: owner.auth });
    expect(remove.statusCode).toBe(200);
    const count = sandbox.sandbox.worldOfAccount(act)!.mutations.length;
    for (const cookie of cookies.values()) {
      expect((await page(cookie)).status).toBe(403);
      expect((await pause(cookie)).status).toBe(403);
    }
    expect((await fetch(unusedLink, { redirect: 'manual' })).status).toBe(403);
    expect(sandbox.sandbox.worldOfAccount(act)!.mutations.length).toBe(count);
  });
});
