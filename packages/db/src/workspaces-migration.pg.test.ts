import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './client.ts';
import { MIGRATIONS_FOLDER } from './migrate.ts';
import { workspaceMembers, workspaces } from './schema/index.ts';
import { createTestDatabase } from './testing.ts';
import { selectRows } from './transactions.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

/** The data step of ADR 0070's first migration; 0023 before it only made the (empty) tables. */
const MIGRATION = readFileSync(join(MIGRATIONS_FOLDER, '0024_workspaces-personal.sql'), 'utf8');

/** A user as the database held them before 0024: a row in `users`, no workspace. */
async function user(name: string): Promise<string> {
  return handle.system('migration fixture', async (tx) => {
    const [row] = await selectRows<{ id: string }>(
      tx.db,
      sql`insert into users (email, name, password_hash) values (${`${name}${Math.random()}@example.com`}, ${name}, 'x')
          returning id`,
    );
    return row?.id ?? '';
  });
}

/** Again, as the tables' owner (who migrates), on whichever engine the suite runs. */
const migrate = () =>
  handle.system('migration under test', async (tx) => {
    await tx.db.execute(sql`set local role none`);
    for (const statement of MIGRATION.split('--> statement-breakpoint')) await tx.db.execute(sql.raw(statement));
  });

const workspacesOf = (userId: string) =>
  handle.system('migration check', (tx) =>
    selectRows<{ id: string; name: string; personal: boolean; role: string }>(
      tx.db,
      sql`select w.id, w.name, w.personal, m.role from workspace_members m join workspaces w on w.id = m.workspace_id
          where m.user_id = ${userId}`,
    ),
  );

describe('0024: one personal workspace per existing user', () => {
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    alice = await user('Alice');
    bob = await user('Bob');
    expect(await workspacesOf(alice)).toEqual([]);
    await migrate();
  });

  it('gives each user exactly one personal workspace, named after them, with them as owner', async () => {
    const [aliceSpace, ...aliceMore] = await workspacesOf(alice);
    const [bobSpace, ...bobMore] = await workspacesOf(bob);
    expect(aliceMore).toEqual([]);
    expect(bobMore).toEqual([]);
    expect(aliceSpace).toMatchObject({ name: 'Alice', personal: true, role: 'owner' });
    expect(bobSpace).toMatchObject({ name: 'Bob', personal: true, role: 'owner' });
    expect(aliceSpace?.id).not.toBe(bobSpace?.id);
  });

  it('adds nothing when it runs again, and the schema refuses a second personal workspace', async () => {
    const before = (await workspacesOf(alice)).map((row) => row.id);
    await migrate();
    expect((await workspacesOf(alice)).map((row) => row.id)).toEqual(before);
    await expect(
      handle.system('second personal workspace', (tx) =>
        tx.db.insert(workspaces).values({ name: 'Alice again', personal: true, personalOwnerId: alice }),
      ),
    ).rejects.toThrow();
  });

  it('lets row-level security alone show a user only their own workspaces and memberships', async () => {
    // No WHERE clause: the policies are the only filter.
    const seen = await handle.user(alice, async (tx) => ({
      spaces: await tx.db.select().from(workspaces),
      members: await tx.db.select().from(workspaceMembers),
    }));
    expect(seen.spaces.map((row) => row.name)).toEqual(['Alice']);
    expect(seen.members.map((row) => row.userId)).toEqual([alice]);
    expect(await handle.db.select().from(workspaces)).toEqual([]);
    expect(await handle.db.select().from(workspaceMembers)).toEqual([]);
  });

  it('refuses a user writing a membership or a workspace (only the system path writes them)', async () => {
    const [bobSpace] = await workspacesOf(bob);
    await expect(
      handle.user(alice, (tx) =>
        tx.db.insert(workspaceMembers).values({ workspaceId: bobSpace?.id ?? '', userId: tx.userId, role: 'owner' }),
      ),
    ).rejects.toThrow();
    await expect(handle.user(alice, (tx) => tx.db.insert(workspaces).values({ name: 'Mine' }))).rejects.toThrow();
    expect((await workspacesOf(alice)).map((row) => row.name)).toEqual(['Alice']);
  });
});
