import type { RunningSandbox } from '@adpilot/meta-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerConsent, startTestSandbox } from '../../test/meta-sandbox.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

/** The real queue (pg-boss on the test database) runs the syncs that connect and "Sync now" enqueue. */
describe('sync jobs on pg-boss', () => {
  let t: TestApp;
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    const started = await startTestSandbox();
    sandbox = started.running;
    t = await createTestApp({}, { meta: started.provider });
  });
  afterAll(async () => {
    await t.ctx.jobs.stop();
    await t.close();
    await sandbox.close();
  });

  async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('timed out');
  }

  it('enqueues once per account while one is queued, and a worker syncs it', async () => {
    // Queue started without workers: jobs wait, so the singleton behaviour is observable.
    await t.ctx.jobs.start({ work: false });
    const session = await registerUser(t.app);
    const { authUrl } = (
      await t.app.inject({ method: 'GET', url: '/api/ad-accounts/facebook/auth-url', headers: session.auth })
    ).json().data;
    const back = await answerConsent(authUrl);
    const connected = (
      await t.app.inject({
        method: 'POST',
        url: '/api/ad-accounts/facebook/callback',
        headers: session.auth,
        payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
      })
    ).json().data.connectedAccounts;
    const account = connected[0];
    expect(account.sync_status).toBe('queued');
    expect(account.last_sync).toBeNull();

    const again = (
      await t.app.inject({ method: 'POST', url: `/api/ad-accounts/${account.id}/sync`, headers: session.auth })
    ).json().data;
    expect(again.queued).toBe(false);

    await t.ctx.jobs.stop();
    await t.ctx.jobs.start({ work: true });
    const synced = await waitFor(async () => {
      const list = (await t.app.inject({ method: 'GET', url: '/api/ad-accounts', headers: session.auth })).json().data;
      const row = list.find((a: { id: string }) => a.id === account.id);
      return row?.last_sync && row.sync_status === 'idle' ? row : undefined;
    });
    expect(new Date(synced.last_sync).getTime()).toBeGreaterThan(0);
  });
});
