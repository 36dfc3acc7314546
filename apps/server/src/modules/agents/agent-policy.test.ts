import { AGENT_POLICY_DEFAULT } from '@adpilot/contracts';
import { adEntities, workspaceMembers } from '@adpilot/db';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxAccounts } from '../../test/connect-account.ts';
import { createSandboxTestApp, registerUser, type SandboxTestApp } from '../../test/test-app.ts';

type Session = Awaited<ReturnType<typeof registerUser>>;

let t: SandboxTestApp;
let owner: Session;
let editor: Session;
let viewer: Session;
let outsider: Session;
let campaigns: { id: string; name: string }[];

const policyUrl = (workspaceId = owner.workspaceId) => `/api/workspaces/${workspaceId}/agent-policy`;
const put = (session: Session, payload: object, workspaceId?: string) =>
  t.app.inject({ method: 'PUT', url: policyUrl(workspaceId), headers: session.auth, payload });
const get = (session: Session, workspaceId?: string) =>
  t.app.inject({ method: 'GET', url: policyUrl(workspaceId), headers: session.auth });

beforeAll(async () => {
  t = await createSandboxTestApp({ RATE_LIMIT_MAX: '0' });
  owner = await registerUser(t.app);
  const accountIds = await connectSandboxAccounts(t.app, owner.auth);
  campaigns = await t.inspect((db) =>
    db
      .select({ id: adEntities.id, name: adEntities.name })
      .from(adEntities)
      .where(and(inArray(adEntities.adAccountId, accountIds), eq(adEntities.level, 'campaign'))),
  );
  editor = await registerUser(t.app);
  viewer = await registerUser(t.app);
  outsider = await registerUser(t.app);
  for (const [session, role] of [
    [editor, 'editor'],
    [viewer, 'viewer'],
  ] as const)
    await t.inspect((db) =>
      db.insert(workspaceMembers).values({ workspaceId: owner.workspaceId, userId: session.user.id, role }),
    );
});
afterAll(() => t.close());

describe('the agent policy of a workspace', () => {
  it('answers the defaults until saved, with the workspace’s campaigns to choose from', async () => {
    const fresh = await registerUser(t.app);
    const answer = await get(fresh, fresh.workspaceId);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toEqual({ ...AGENT_POLICY_DEFAULT, updatedAt: null, campaigns: [] });
    const withAccounts = (await get(viewer)).json().data;
    expect(withAccounts.campaigns.map((c: { id: string }) => c.id).sort()).toEqual(campaigns.map((c) => c.id).sort());
    expect(withAccounts.campaigns[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      adAccountName: expect.any(String),
    });
  });

  it('is saved by an owner, read back by a viewer, and logged', async () => {
    const protectedIds = [campaigns[0]!.id, campaigns[0]!.id];
    const saved = await put(owner, {
      maxBudgetChangePercent: 15,
      maxChangesPerDay: 5,
      protectedCampaignIds: protectedIds,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({
      maxBudgetChangePercent: 15,
      maxChangesPerDay: 5,
      protectedCampaignIds: [campaigns[0]!.id],
    });
    expect((await get(viewer)).json().data).toMatchObject({
      maxBudgetChangePercent: 15,
      updatedAt: expect.any(String),
    });
    const logs = await t.app.inject({ method: 'GET', url: '/api/logs?type=workspace', headers: owner.auth });
    expect(logs.json().data.logs[0]).toMatchObject({
      code: 'agent_policy_changed',
      params: { percent: 15, perDay: 5, protected: 1 },
    });
  });

  it('refuses an editor naming the role, and answers someone outside the workspace not found', async () => {
    const refused = await put(editor, {
      maxBudgetChangePercent: 100,
      maxChangesPerDay: 1000,
      protectedCampaignIds: [],
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('an admin');
    expect((await get(outsider, owner.workspaceId)).statusCode).toBe(404);
    expect(
      (
        await put(
          outsider,
          { maxBudgetChangePercent: 5, maxChangesPerDay: 1, protectedCampaignIds: [] },
          owner.workspaceId,
        )
      ).statusCode,
    ).toBe(404);
  });

  it('refuses limits out of range and a campaign that is not the workspace’s, changing nothing', async () => {
    const before = (await get(owner)).json().data;
    for (const body of [
      { maxBudgetChangePercent: 0, maxChangesPerDay: 5, protectedCampaignIds: [] },
      { maxBudgetChangePercent: 101, maxChangesPerDay: 5, protectedCampaignIds: [] },
      { maxBudgetChangePercent: 10, maxChangesPerDay: -1, protectedCampaignIds: [] },
      { maxBudgetChangePercent: 10.5, maxChangesPerDay: 5, protectedCampaignIds: [] },
      { maxBudgetChangePercent: 10, maxChangesPerDay: 5 },
    ])
      expect((await put(owner, body)).statusCode, JSON.stringify(body)).toBe(400);
    const foreign = await put(owner, {
      maxBudgetChangePercent: 10,
      maxChangesPerDay: 5,
      protectedCampaignIds: ['00000000-0000-4000-8000-000000000001'],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual([
      { field: 'protectedCampaignIds.0', message: 'Not a campaign of this workspace' },
    ]);
    expect((await get(owner)).json().data).toEqual(before);
  });
});
