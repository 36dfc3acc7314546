import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './client.ts';
import { activityLogs, adAccounts, mailOutbox, users, workspaceMembers, workspaces } from './schema/index.ts';
import { createTestDatabase } from './testing.ts';
import { selectRows, type TenantScope } from './transactions.ts';

const workspaceJob = (workspaceId: string): TenantScope => ({ workspaceId, userId: null });

const entry = (workspaceId: string, description: string) => ({
  workspaceId,
  level: 'info' as const,
  category: 'test',
  description,
});

describe('units of work and row-level security', () => {
  let handle: DatabaseHandle;
  // Each user's personal workspace, and the scope of their own work in it.
  let alice: TenantScope & { userId: string };
  let bob: TenantScope & { userId: string };

  beforeAll(async () => {
    handle = await createTestDatabase();
    [alice, bob] = await handle.system('test setup', async (tx) => {
      const rows = await tx.db
        .insert(users)
        .values([
          { email: 'alice@example.com', name: 'Alice', passwordHash: 'x' },
          { email: 'bob@example.com', name: 'Bob', passwordHash: 'x' },
        ])
        .returning({ id: users.id });
      const made = await tx.db
        .insert(workspaces)
        .values(rows.map((row) => ({ name: 'w', personal: true, personalOwnerId: row.id })))
        .returning({ id: workspaces.id, owner: workspaces.personalOwnerId });
      await tx.db
        .insert(workspaceMembers)
        .values(made.map((w) => ({ workspaceId: w.id, userId: w.owner!, role: 'owner' as const })));
      const scopes = rows.map((row) => ({ workspaceId: made.find((w) => w.owner === row.id)!.id, userId: row.id }));
      await tx.db
        .insert(activityLogs)
        .values([entry(scopes[0]!.workspaceId, 'alice entry'), entry(scopes[1]!.workspaceId, 'bob entry')]);
      await tx.db
        .insert(mailOutbox)
        .values({ toAddress: 'alice@example.com', subject: 's', sealedBody: 'v1.b', expiresAt: new Date() });
      return scopes as [TenantScope & { userId: string }, TenantScope & { userId: string }];
    });
  });
  afterAll(() => handle.close());

  it('shows the plain handle no tenant rows and refuses it the tables of no user', async () => {
    expect(await handle.db.select().from(activityLogs)).toEqual([]);
    expect(await handle.db.select().from(users)).toEqual([]);
    const refused = await handle.db
      .select()
      .from(mailOutbox)
      .then(
        () => undefined,
        (error: Error) => error.cause,
      );
    expect(refused).toMatchObject({ code: '42501' });
    // Writes fail closed as well: the policy's check refuses a row for a workspace the handle is not in.
    await expect(handle.db.insert(activityLogs).values(entry(alice.workspaceId, 'forged'))).rejects.toThrow();
  });

  it('shows a workspace only its own rows, even without a WHERE clause', async () => {
    const seen = await handle.tenant(alice, (tx) => tx.db.select().from(activityLogs));
    expect(seen.map((r) => r.description)).toEqual(['alice entry']);
    const me = await handle.tenant(alice, (tx) => tx.db.select().from(users));
    expect(me.map((u) => u.email)).toEqual(['alice@example.com']);
  });

  it('shows a unit of work naming a workspace its user is not a member of nothing (row-level security alone)', async () => {
    // Alice names Bob's workspace: the policies' membership test refuses every row, with no filter in the query.
    const forged = { workspaceId: bob.workspaceId, userId: alice.userId };
    expect(await handle.tenant(forged, (tx) => tx.db.select().from(activityLogs))).toEqual([]);
    await expect(
      handle.tenant(forged, (tx) => tx.db.insert(activityLogs).values(entry(bob.workspaceId, 'forged'))),
    ).rejects.toThrow();
    // A person's own unit of work names no workspace: it sees no workspace's rows.
    expect(await handle.user(alice.userId, (tx) => tx.db.select().from(activityLogs))).toEqual([]);
  });

  it('lets a member in while the membership lasts, whatever the role, and not a moment after', async () => {
    const asMember = { workspaceId: bob.workspaceId, userId: alice.userId };
    await handle.system('test setup', (tx) =>
      tx.db.insert(workspaceMembers).values({ workspaceId: bob.workspaceId, userId: alice.userId, role: 'viewer' }),
    );
    const seen = await handle.tenant(asMember, (tx) => tx.db.select().from(activityLogs));
    expect(seen.map((r) => r.description)).toEqual(['bob entry']);
    await handle.system('test cleanup', (tx) =>
      tx.db
        .delete(workspaceMembers)
        .where(
          sql`${workspaceMembers.workspaceId} = ${bob.workspaceId} and ${workspaceMembers.userId} = ${alice.userId}`,
        ),
    );
    expect(await handle.tenant(asMember, (tx) => tx.db.select().from(activityLogs))).toEqual([]);
  });

  it('lets a workspace job (no person) see its workspace and only it', async () => {
    const seen = await handle.tenant(workspaceJob(bob.workspaceId), (tx) => tx.db.select().from(activityLogs));
    expect(seen.map((r) => r.description)).toEqual(['bob entry']);
    expect(await handle.tenant(workspaceJob(bob.workspaceId), (tx) => tx.db.select().from(users))).toEqual([]);
  });

  it('refuses to write a row for another workspace', async () => {
    await expect(
      handle.tenant(alice, (tx) => tx.db.insert(activityLogs).values(entry(bob.workspaceId, 'forged'))),
    ).rejects.toThrow();
  });

  it('cannot update or delete another workspace’s rows', async () => {
    await handle.tenant(alice, (tx) => tx.db.delete(activityLogs).where(eq(activityLogs.workspaceId, bob.workspaceId)));
    await handle.tenant(alice, (tx) => tx.db.update(users).set({ name: 'taken' }).where(eq(users.id, bob.userId)));
    const all = await handle.system('test check', (tx) => tx.db.select().from(activityLogs));
    expect(all.map((r) => r.description).sort()).toEqual(['alice entry', 'bob entry']);
    const [bobRow] = await handle.system('test check', (tx) =>
      tx.db.select().from(users).where(eq(users.id, bob.userId)),
    );
    expect(bobRow?.name).toBe('Bob');
  });

  it('commits or rolls back a unit of work as a whole', async () => {
    const failure = new Error('second step failed');
    await expect(
      handle.tenant(alice, async (tx) => {
        await tx.db.insert(activityLogs).values(entry(tx.workspaceId, 'first write'));
        await tx.db.update(users).set({ name: 'Alice Renamed' }).where(eq(users.id, alice.userId));
        throw failure;
      }),
    ).rejects.toBe(failure);
    const after = await handle.tenant(alice, async (tx) => ({
      logs: await tx.db.select().from(activityLogs),
      me: await tx.db.select().from(users),
    }));
    expect(after.logs.map((r) => r.description)).toEqual(['alice entry']);
    expect(after.me[0]?.name).toBe('Alice');
  });

  it('leaves no user or role behind once a unit of work ends', async () => {
    await handle.tenant(alice, (tx) => tx.db.select().from(users));
    await expect(handle.tenant(alice, () => Promise.reject(new Error('x')))).rejects.toThrow();
    expect(await handle.db.select().from(activityLogs)).toEqual([]);
    const [who] = await selectRows<{ role: string }>(handle.db, sql`select current_user as role`);
    expect(who?.role).toBe('adpilot_app');
  });

  it('keeps users apart when many units of work share the pool, and recovers from a failed statement', async () => {
    const rounds = Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? alice : bob));
    const seen = await Promise.all(
      rounds.map((scope) =>
        handle.tenant(scope, async (tx) => {
          const rows = await tx.db.select({ description: activityLogs.description }).from(activityLogs);
          return rows.map((r) => r.description).join();
        }),
      ),
    );
    expect(seen).toEqual(rounds.map((scope) => (scope === alice ? 'alice entry' : 'bob entry')));
    // A statement the database refuses aborts the transaction; the connection goes back clean.
    await expect(handle.tenant(alice, (tx) => tx.db.execute(sql`select 1/0`))).rejects.toThrow();
    const after = await Promise.all(
      [bob, alice, bob, alice, bob].map((scope) =>
        handle.tenant(scope, (tx) =>
          selectRows<{ id: string }>(tx.db, sql`select current_setting('app.user_id') as id`),
        ),
      ),
    );
    expect(after.map(([row]) => row?.id)).toEqual([bob, alice, bob, alice, bob].map((scope) => scope.userId));
  });

  it('refuses to report a commit when a statement failed inside the unit of work and the work went on', async () => {
    const outcome = handle.tenant(alice, async (tx) => {
      await tx.db.insert(activityLogs).values(entry(tx.workspaceId, 'lost with the transaction'));
      await tx.db.execute(sql`select 1/0`).catch(() => undefined);
      return 'done';
    });
    await expect(outcome).rejects.toMatchObject({ code: '25P02' });
    const logs = await handle.tenant(alice, (tx) => tx.db.select().from(activityLogs));
    expect(logs.map((r) => r.description)).toEqual(['alice entry']);
  });

  it('answers statements started at once inside one unit of work each with its own rows', async () => {
    // Both texts are new to the connection, so each is described before it runs: the messages of the two must not
    // interleave on the one connection (the rule evaluator reads entities and insights with Promise.all).
    const unique = `${Date.now()}`;
    const [entries, me, count] = await handle.tenant(alice, (tx) =>
      Promise.all([
        tx.db
          .select()
          .from(activityLogs)
          .where(sql`${activityLogs.description} <> ${unique}`),
        tx.db
          .select({ email: users.email })
          .from(users)
          .where(sql`${users.name} <> ${unique}`),
        selectRows<{ n: number }>(
          tx.db,
          sql`select count(*)::int as n from activity_logs where description <> ${unique + 'x'}`,
        ),
      ]),
    );
    expect(entries.map((row) => row.description)).toEqual(['alice entry']);
    expect(me).toEqual([{ email: 'alice@example.com' }]);
    expect(count).toEqual([{ n: 1 }]);
  });

  it('sends every kind of value the same way the second time a statement runs as the first', async () => {
    const when = new Date('2026-01-02T03:04:05.678Z');
    const write = (description: string) =>
      handle.tenant(bob, async (tx) => {
        const [row] = await tx.db
          .insert(activityLogs)
          .values({ ...entry(tx.workspaceId, description), metadata: { n: 1, list: ['a', 'b'] }, createdAt: when })
          .returning();
        const [read] = await selectRows<{ same: boolean; tags: string[] | null }>(
          tx.db,
          sql`select ${when}::timestamptz = ${row!.createdAt} as same, ${sql.param(['x', 'y'])}::text[] as tags`,
        );
        return { row, read };
      });
    // The first run asks the database for the parameters' types; the second uses what it learnt.
    for (const description of ['typed once', 'typed again']) {
      const { row, read } = await write(description);
      expect(row).toMatchObject({ description, metadata: { n: 1, list: ['a', 'b'] }, createdAt: when });
      expect(read).toEqual({ same: true, tags: ['x', 'y'] });
    }
    await handle.system('test cleanup', (tx) =>
      tx.db.delete(activityLogs).where(sql`${activityLogs.description} like 'typed %'`),
    );
  });

  it('hears a notification once the transaction that sent it commits, and not when it rolls back', async () => {
    const heard: string[] = [];
    const unlisten = await handle.listen('adpilot_test_channel', { onMessage: (payload) => heard.push(payload) });
    try {
      await expect(
        handle.system('test', async (tx) => {
          await tx.db.execute(sql`select pg_notify('adpilot_test_channel', 'rolled back')`);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      await handle.system('test', (tx) => tx.db.execute(sql`select pg_notify('adpilot_test_channel', 'committed')`));
      await expect.poll(() => heard, { timeout: 2000 }).toEqual(['committed']);
    } finally {
      await unlisten();
    }
  });

  it('refuses a tenant transaction without a proper workspace or user id', async () => {
    await expect(handle.tenant(workspaceJob("x' or true --"), async () => 1)).rejects.toThrow(/uuid/);
    await expect(handle.tenant({ ...alice, userId: "x' or true --" }, async () => 1)).rejects.toThrow(/uuid/);
    await expect(handle.tenant({ workspaceId: '', userId: alice.userId }, async () => 1)).rejects.toThrow(/workspace/);
  });

  it('forces row-level security on every table that has a user_id or a workspace_id column', async () => {
    // A new tenant table needs FORCE in a custom migration (drizzle-kit only writes ENABLE): this test says so.
    const tables = await handle.system('test check', (tx) =>
      selectRows<{ table: string; rls: boolean; forced: boolean }>(
        tx.db,
        sql`
        select c.relname as "table", c.relrowsecurity as rls, c.relforcerowsecurity as forced
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r'
          and (exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname in ('user_id', 'workspace_id'))
               or c.relname in ('users', 'workspaces'))`,
      ),
    );
    expect(tables.length).toBeGreaterThanOrEqual(20);
    expect(tables.filter((t) => !t.rls || !t.forced).map((t) => t.table)).toEqual([]);
    expect(adAccounts).toBeDefined();
  });
});
