import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './client.ts';
import { activityLogs, users } from './schema/index.ts';
import { withTenant } from './tenant.ts';
import { createTestDatabase } from './testing.ts';

describe('row-level security', () => {
  let handle: DatabaseHandle;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    handle = await createTestDatabase();
    const rows = await handle.db
      .insert(users)
      .values([
        { email: 'alice@example.com', name: 'Alice', passwordHash: 'x' },
        { email: 'bob@example.com', name: 'Bob', passwordHash: 'x' },
      ])
      .returning({ id: users.id });
    [alice, bob] = rows.map((r) => r.id) as [string, string];
    await handle.db.insert(activityLogs).values([
      { userId: alice, level: 'info', category: 'test', description: 'alice entry' },
      { userId: bob, level: 'info', category: 'test', description: 'bob entry' },
    ]);
  });
  afterAll(() => handle.close());

  it('shows a tenant only its own rows, even without a WHERE clause', async () => {
    const seen = await withTenant(handle.db, alice, (tx) => tx.select().from(activityLogs));
    expect(seen.map((r) => r.description)).toEqual(['alice entry']);
    const me = await withTenant(handle.db, alice, (tx) => tx.select().from(users));
    expect(me.map((u) => u.email)).toEqual(['alice@example.com']);
  });

  it('refuses to write a row for another tenant', async () => {
    await expect(
      withTenant(handle.db, alice, (tx) =>
        tx.insert(activityLogs).values({ userId: bob, level: 'info', category: 'test', description: 'forged' }),
      ),
    ).rejects.toThrow();
  });

  it('cannot update or delete another tenant’s rows', async () => {
    await withTenant(handle.db, alice, (tx) => tx.delete(activityLogs).where(eq(activityLogs.userId, bob)));
    const all = await handle.db.select().from(activityLogs);
    expect(all.map((r) => r.description).sort()).toEqual(['alice entry', 'bob entry']);
  });

  it('shows nothing when no user is set', async () => {
    const rows = await handle.db.transaction(async (tx) => {
      await tx.execute('set local role adpilot_app' as never);
      return tx.select().from(activityLogs);
    });
    expect(rows).toEqual([]);
  });
});
