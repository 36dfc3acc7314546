import { adAccounts } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenance } from './maintenance.jobs.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { STALE_SYNC_MINUTES, SYNC_STALLED } from '../ad-accounts/sync-state.ts';
import { MaintenanceService } from './maintenance.service.ts';

/** A sync whose job died leaves `queued`/`syncing` behind; the hourly maintenance run turns it into an error. */
describe('stale sync recovery', () => {
  let t: TestApp;
  const enqueued: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        scheduler: {
          enqueueSync: async (_workspaceId, adAccountId) => {
            enqueued.push(adAccountId);
            return true;
          },
        },
      },
    );
  });
  afterAll(() => t.close());

  const minutesAgo = (minutes: number) => new Date(t.clock.now.getTime() - minutes * 60_000);
  const run = () =>
    runMaintenance({
      maintenance: new MaintenanceService({
        transactions: t.database,
        auth: t.modules.auth.service,
        adAccounts: t.modules.adAccounts.service,
        adAccountSync: t.modules.adAccounts.sync,
        outbox: t.mailOutbox,
      }),
      now: () => t.clock.now,
      log: pino({ level: 'silent' }),
    });

  async function seed(
    workspaceId: string,
    syncStatus: 'idle' | 'queued' | 'syncing',
    updatedAt: Date,
  ): Promise<string> {
    const [row] = await t.inspect((db) =>
      db
        .insert(adAccounts)
        .values({
          workspaceId,
          facebookAccountId: `${Math.floor(Math.random() * 1e12)}`,
          facebookAccountName: 'Shop',
          metaAccountStatus: 1,
          currency: 'THB',
          timezone: 'Asia/Bangkok',
          accessTokenEnc: 'v1.x',
          syncStatus,
          updatedAt,
        })
        .returning({ id: adAccounts.id }),
    );
    return row!.id;
  }
  const read = async (id: string) =>
    (await t.inspect((db) => db.select().from(adAccounts).where(eq(adAccounts.id, id))))[0]!;

  it('turns queued and syncing states older than the bound into a stored code, and leaves live ones', async () => {
    const { workspaceId } = await registerUser(t.app);
    const staleSyncing = await seed(workspaceId, 'syncing', minutesAgo(STALE_SYNC_MINUTES + 1));
    const staleQueued = await seed(workspaceId, 'queued', minutesAgo(STALE_SYNC_MINUTES * 3));
    const liveSyncing = await seed(workspaceId, 'syncing', minutesAgo(5));
    const oldIdle = await seed(workspaceId, 'idle', minutesAgo(STALE_SYNC_MINUTES * 10));

    await run();
    for (const id of [staleSyncing, staleQueued]) {
      expect(await read(id)).toMatchObject({ syncStatus: 'error', lastSyncError: SYNC_STALLED });
    }
    expect(await read(liveSyncing)).toMatchObject({ syncStatus: 'syncing', lastSyncError: null });
    expect(await read(oldIdle)).toMatchObject({ syncStatus: 'idle', lastSyncError: null });

    // The same sync, still silent once the clock has passed the bound, is recovered by the next run.
    t.clock.advance(STALE_SYNC_MINUTES * 60_000);
    await run();
    expect(await read(liveSyncing)).toMatchObject({ syncStatus: 'error', lastSyncError: SYNC_STALLED });
  });

  it('lets the user sync a recovered account again', async () => {
    const session = await registerUser(t.app);
    const id = await seed(session.workspaceId, 'syncing', minutesAgo(STALE_SYNC_MINUTES * 2));
    await run();

    const response = await t.app.inject({ method: 'POST', url: `/api/ad-accounts/${id}/sync`, headers: session.auth });
    expect(response.statusCode).toBe(202);
    expect(response.json().data.account).toMatchObject({ sync_status: 'queued', last_sync_error: SYNC_STALLED });
    expect(enqueued).toContain(id);
    expect((await read(id)).syncStatus).toBe('queued');
  });
});
