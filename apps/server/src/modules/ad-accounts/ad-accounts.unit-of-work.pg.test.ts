import { adAccounts } from '@adpilot/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

/** A disconnect deletes the account and logs it: both in one unit of work, or neither. */
describe('disconnect as one unit of work', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function seedAccount(workspaceId: string): Promise<string> {
    const [row] = await t.inspect((db) =>
      db
        .insert(adAccounts)
        .values({
          workspaceId,
          facebookAccountId: `${Date.now()}`,
          facebookAccountName: 'Shop',
          metaAccountStatus: 1,
          currency: 'THB',
          timezone: 'Asia/Bangkok',
          accessTokenEnc: 'v1.x',
        })
        .returning({ id: adAccounts.id }),
    );
    return row!.id;
  }

  it('keeps the account when its log entry cannot be written', async () => {
    const session = await registerUser(t.app);
    const id = await seedAccount(session.workspaceId);
    // The log entry, the second write, fails for real: the application role may no longer insert log rows.
    await asOwner(t, sql`revoke insert on activity_logs from adpilot_app`);
    try {
      const response = await t.app.inject({ method: 'DELETE', url: `/api/ad-accounts/${id}`, headers: session.auth });
      expect(response.statusCode).toBe(500);
    } finally {
      await asOwner(t, sql`grant insert on activity_logs to adpilot_app`);
    }
    const left = await t.inspect((db) => db.select().from(adAccounts).where(eq(adAccounts.id, id)));
    expect(left).toHaveLength(1);

    const again = await t.app.inject({ method: 'DELETE', url: `/api/ad-accounts/${id}`, headers: session.auth });
    expect(again.statusCode).toBe(200);
    expect(await t.inspect((db) => db.select().from(adAccounts).where(eq(adAccounts.id, id)))).toEqual([]);
  });
});
