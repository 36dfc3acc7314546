import { WORKSPACE_HEADER, type WorkspaceRole } from '@adpilot/contracts';
import { oauthStates, workspaceMembers } from '@adpilot/db';
import type { RunningSandbox } from '@adpilot/meta/sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../test/meta-sandbox.ts';
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
