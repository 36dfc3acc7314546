import { mailOutbox, oauthStates, passwordResets, rateLimitBuckets, refreshTokens } from '@adpilot/db';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { MaintenanceService } from './maintenance.service.ts';

/** The clean-up asks each owner for its spent rows, in one unit of work on the system path. */
describe('purgeExpiredIn', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('deletes spent and expired rows and keeps live ones', async () => {
    const { user, workspaceId } = await registerUser(t.app);
    await t.database.system('test', async (tx) => {
      const db = tx.db;
      const now = new Date('2026-06-01T12:00:00Z');
      const hour = 3_600_000;
      const at = (offsetHours: number) => new Date(now.getTime() + offsetHours * hour);
      await db.insert(oauthStates).values([
        { userId: user.id, workspaceId, stateHash: 'live', provider: 'meta', redirectUri: 'x', expiresAt: at(1) },
        { userId: user.id, workspaceId, stateHash: 'expired', provider: 'meta', redirectUri: 'x', expiresAt: at(-1) },
        {
          userId: user.id,
          workspaceId,
          stateHash: 'used',
          provider: 'meta',
          redirectUri: 'x',
          expiresAt: at(1),
          usedAt: at(-0.5),
        },
      ]);
      await db.insert(passwordResets).values([
        { userId: user.id, tokenHash: 'live', expiresAt: at(1) },
        { userId: user.id, tokenHash: 'expired', expiresAt: at(-1) },
      ]);
      const family = randomUUID();
      await db.insert(refreshTokens).values([
        {
          userId: user.id,
          familyId: family,
          tokenHash: 'revoked-recently',
          expiresAt: at(24 * 20),
          revokedAt: at(-24),
        },
        {
          userId: user.id,
          familyId: family,
          tokenHash: 'revoked-long-ago',
          expiresAt: at(24 * 20),
          revokedAt: at(-24 * 10),
        },
        { userId: user.id, familyId: family, tokenHash: 'expired', expiresAt: at(-1) },
      ]);
      await db.insert(rateLimitBuckets).values([
        { key: 'open', count: 3, resetAt: at(0.25) },
        { key: 'closed', count: 3, resetAt: at(-0.25) },
      ]);

      await db.insert(mailOutbox).values([
        { toAddress: 'a@example.com', subject: 'live', sealedBody: 'v1.x', expiresAt: at(0.5) },
        { toAddress: 'a@example.com', subject: 'expired', sealedBody: 'v1.y', expiresAt: at(-0.5) },
      ]);

      const { auth, adAccounts } = t.modules;
      const maintenance = new MaintenanceService({
        transactions: t.database,
        auth: auth.service,
        adAccounts: adAccounts.service,
        adAccountSync: adAccounts.sync,
        outbox: t.mailOutbox,
      });
      // Revoked tokens are kept seven days: 'revoked-recently' (a day ago) stays, 'revoked-long-ago' (ten) goes.
      const counts = await maintenance.purgeExpiredIn(tx, now);
      expect(counts).toEqual({
        oauthStates: 2,
        passwordResets: 1,
        loginCodes: 0,
        refreshTokens: 2,
        rateLimitBuckets: 1,
        outboxMail: 1,
      });
      expect((await db.select().from(mailOutbox)).map((r) => r.subject)).toEqual(['live']);
      expect((await db.select().from(oauthStates)).map((r) => r.stateHash)).toEqual(['live']);
      expect((await db.select().from(rateLimitBuckets)).map((r) => r.key)).toEqual(['open']);
      const tokens = (await db.select().from(refreshTokens)).map((r) => r.tokenHash);
      expect(tokens).toContain('revoked-recently');
      expect(tokens).not.toContain('revoked-long-ago');
    });
  });
});
