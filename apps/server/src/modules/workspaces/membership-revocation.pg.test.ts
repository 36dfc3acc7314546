import { WORKSPACE_HEADER } from '@adpilot/contracts';
import { workspaceMembers } from '@adpilot/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse } from '../../test/sse-client.ts';
import { createTestApp, listenLocally, registerUser, type TestApp } from '../../test/test-app.ts';

/**
 * A member removed from a workspace by any path (here an operator's SQL, so no code of ours evicts anything) loses
 * it at once: the trigger on `workspace_members` announces the member on the sessions channel, the membership cache
 * forgets them, their open stream of that workspace ends and their next request is refused (ADR 0070). The heartbeat
 * is set far beyond the test's wait, so only the announcement can end the stream in time.
 */
let t: TestApp;
let origin: string;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MAX: '0', LOG_STREAM_HEARTBEAT_MS: '300000' });
  origin = await listenLocally(t.app);
});
afterAll(() => t.close());

describe('a membership removed behind the API', () => {
  it('ends the member’s open stream of the workspace and refuses their next request', async () => {
    const owner = await registerUser(t.app);
    const member = await registerUser(t.app);
    await t.inspect((db) =>
      db.insert(workspaceMembers).values({ workspaceId: owner.workspaceId, userId: member.user.id, role: 'editor' }),
    );
    const inOwners = { ...member.auth, [WORKSPACE_HEADER]: owner.workspaceId };
    // Read once as a member, so the cache holds the membership the removal must undo.
    expect((await t.app.inject({ method: 'GET', url: '/api/rules', headers: inOwners })).statusCode).toBe(200);

    const query = `token=${encodeURIComponent(member.token)}&workspaceId=${owner.workspaceId}`;
    const stream = await openSse(`${origin}/api/logs/stream?${query}`);
    expect(stream.status).toBe(200);
    // The member's own workspace stays theirs: a second stream there must outlive the removal.
    const own = await openSse(`${origin}/api/logs/stream?token=${encodeURIComponent(member.token)}`);
    expect(own.status).toBe(200);

    await t.inspect((db) =>
      db
        .delete(workspaceMembers)
        .where(and(eq(workspaceMembers.workspaceId, owner.workspaceId), eq(workspaceMembers.userId, member.user.id))),
    );

    await stream.waitFor(() => stream.isEnded(), 10_000);
    const refused = await t.app.inject({ method: 'GET', url: '/api/rules', headers: inOwners });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Workspace not found' });
    expect(own.isEnded()).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/rules', headers: member.auth })).statusCode).toBe(200);
    own.close();
  });
});
