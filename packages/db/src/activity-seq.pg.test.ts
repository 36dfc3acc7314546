import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './client.ts';
import { activityLogCounters, activityLogs } from './schema/index.ts';
import { createTestDatabase, personalWorkspace } from './testing.ts';
import { systemWithin, type TenantScope, type TenantTx } from './transactions.ts';

// Activity entries are numbered as their transaction commits (migration 0044, ADR 0200).

const entry = (workspaceId: string, description: string) => ({
  workspaceId,
  level: 'info' as const,
  category: 'test',
  description,
});

/** A promise and the function that settles it: one transaction waits inside while the test acts on another. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('activity numbers given at commit', () => {
  let handle: DatabaseHandle;
  let scope: TenantScope;

  /** A workspace of its own per test, so the numbers each test reads start at 1 whatever ran before. */
  const freshWorkspace = (): Promise<TenantScope> =>
    personalWorkspace(handle, { email: `seq-${crypto.randomUUID()}@example.com`, name: 'Seq' });

  const numbers = (of: TenantScope) =>
    handle.tenant(of, (tx) =>
      tx.db
        .select({ description: activityLogs.description, seq: activityLogs.seq })
        .from(activityLogs)
        .where(eq(activityLogs.workspaceId, tx.workspaceId))
        .orderBy(asc(activityLogs.seq)),
    );

  const insert = (tx: TenantTx, description: string) =>
    tx.db.insert(activityLogs).values(entry(tx.workspaceId, description)).returning({ seq: activityLogs.seq });

  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('reads 0 inside its own transaction and its number once committed, in insert order', async () => {
    scope = await freshWorkspace();
    const inside = await handle.tenant(scope, async (tx) => {
      const first = await insert(tx, 'a');
      const second = await insert(tx, 'b');
      return [first[0]!.seq, second[0]!.seq];
    });
    expect(inside).toEqual([0, 0]);
    await handle.tenant(scope, (tx) => insert(tx, 'c'));
    expect(await numbers(scope)).toEqual([
      { description: 'a', seq: 1 },
      { description: 'b', seq: 2 },
      { description: 'c', seq: 3 },
    ]);
  });

  it('spends no number on a transaction that rolls back or an entry deleted before its commit', async () => {
    scope = await freshWorkspace();
    await handle.tenant(scope, (tx) => insert(tx, 'kept'));
    await expect(
      handle.tenant(scope, async (tx) => {
        await insert(tx, 'rolled back');
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    await handle.tenant(scope, async (tx) => {
      await insert(tx, 'deleted');
      await tx.db.delete(activityLogs).where(eq(activityLogs.description, 'deleted'));
      await insert(tx, 'next');
    });
    expect(await numbers(scope)).toEqual([
      { description: 'kept', seq: 1 },
      // The deleted entry's number (2) is never handed out again, and no row carries it.
      { description: 'next', seq: 3 },
    ]);
    const [counter] = await handle.system('test read', (tx) =>
      tx.db.select().from(activityLogCounters).where(eq(activityLogCounters.workspaceId, scope.workspaceId)),
    );
    expect(counter?.lastSeq).toBe(3);
  });

  it('tells the listeners each committed entry with its number, and nothing of one deleted before its commit', async () => {
    scope = await freshWorkspace();
    const heard: string[] = [];
    const unlisten = await handle.listen('activity_logs', {
      onMessage: (payload) => {
        if (payload.startsWith(scope.workspaceId)) heard.push(payload);
      },
    });
    try {
      await handle.tenant(scope, async (tx) => {
        await insert(tx, 'one');
        await insert(tx, 'gone');
        await tx.db.delete(activityLogs).where(eq(activityLogs.description, 'gone'));
        await insert(tx, 'three');
      });
      // Delivery is asynchronous: a bounded wait for the two notifications, then no third.
      await expect.poll(() => heard.length, { timeout: 5000 }).toBe(2);
      expect(heard).toEqual([`${scope.workspaceId}:1`, `${scope.workspaceId}:3`]);
    } finally {
      await unlisten();
    }
  });

  it('still numbers an entry that the product writes through the system path', async () => {
    scope = await freshWorkspace();
    await handle.system('test write', (tx) => tx.db.insert(activityLogs).values(entry(scope.workspaceId, 'system')));
    expect(await numbers(scope)).toEqual([{ description: 'system', seq: 1 }]);
  });

  it("numbers the entries a person's unit of work wrote for other workspaces through the system path", async () => {
    // The pooled plan's downgrade (ADR 0110): at commit the role is the application's again, with no workspace set.
    const first = await freshWorkspace();
    const second = await freshWorkspace();
    await handle.user(first.userId!, (tx) =>
      systemWithin(tx, 'test write', (system) =>
        system.db.insert(activityLogs).values([entry(first.workspaceId, 'first'), entry(second.workspaceId, 'second')]),
      ),
    );
    expect(await numbers(first)).toEqual([{ description: 'first', seq: 1 }]);
    expect(await numbers(second)).toEqual([{ description: 'second', seq: 1 }]);
    await handle.tenant(first, (tx) => insert(tx, 'again'));
    expect(await numbers(first)).toEqual([
      { description: 'first', seq: 1 },
      { description: 'again', seq: 2 },
    ]);
  });

  describe.skipIf(!process.env.TEST_DATABASE_URL)('two writers of one workspace on Postgres', () => {
    it('lets a second writer insert and commit while the first still holds an entry', async () => {
      scope = await freshWorkspace();
      const inside = gate();
      const release = gate();
      const first = handle.tenant(scope, async (tx) => {
        await insert(tx, 'slow');
        inside.open();
        await release.opened;
      });
      await inside.opened;
      // Under the insert-time trigger this waited on the counter row until the first transaction ended.
      await handle.tenant(scope, async (tx) => {
        await tx.db.execute(sql`set local lock_timeout = '2s'`);
        await insert(tx, 'fast');
      });
      release.open();
      await first;
      expect(await numbers(scope)).toEqual([
        { description: 'fast', seq: 1 },
        { description: 'slow', seq: 2 },
      ]);
    });

    it('keeps the promise the stream rests on: whoever saw seq k saw every lower number', async () => {
      scope = await freshWorkspace();
      const writers = 8;
      const perWriter = 10;
      const seen: number[][] = [];
      let writing = true;
      const reader = (async () => {
        while (writing) {
          const rows = await numbers(scope);
          seen.push(rows.map((row) => row.seq));
        }
      })();
      await Promise.all(
        Array.from({ length: writers }, (_, w) =>
          (async () => {
            for (let i = 0; i < perWriter; i += 1)
              await handle.tenant(scope, async (tx) => {
                await insert(tx, `${w}-${i}`);
              });
          })(),
        ),
      );
      writing = false;
      await reader;
      const final = (await numbers(scope)).map((row) => row.seq);
      expect(final).toEqual(Array.from({ length: writers * perWriter }, (_, i) => i + 1));
      // Every snapshot a reader took is a prefix 1..k: no number became visible before a lower one.
      for (const snapshot of seen) expect(snapshot).toEqual(Array.from({ length: snapshot.length }, (_, i) => i + 1));
      expect(seen.length).toBeGreaterThan(0);
    });
  });
});
