import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './migrate.ts';
import { activityLogs } from './schema/index.ts';
import { personalWorkspace } from './testing.ts';
import { selectRows } from './transactions.ts';

const serverUrl = process.env.TEST_DATABASE_URL;

/**
 * Production databases are often owned by a user that is not a superuser. Such an owner is bound by FORCE row-level
 * security, and may or may not be allowed to switch to the application roles: the start must then stop, saying so.
 */
describe.skipIf(!serverUrl)('a database owned by a user that is not a superuser', () => {
  const made: { role: string; database: string }[] = [];

  async function asSuperuser<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  /** A login role and a database it owns; the application roles exist, as another instance left them. */
  async function ownerDatabase(grantRoles: boolean): Promise<string> {
    const suffix = randomBytes(5).toString('hex');
    const role = `adpilot_owner_${suffix}`;
    const database = `adpilot_owned_${suffix}`;
    await asSuperuser(async (client) => {
      for (const name of ['adpilot_app', 'adpilot_system']) {
        await client.query(
          `do $$ begin create role ${name} nologin; exception when duplicate_object or unique_violation then null; end $$`,
        );
      }
      await client.query(`create role ${role} login nosuperuser nocreaterole`);
      await client.query(`create database ${database} owner ${role}`);
      if (grantRoles) await client.query(`grant adpilot_app, adpilot_system to ${role}`);
    });
    made.push({ role, database });
    const url = new URL(serverUrl!);
    url.username = role;
    url.pathname = `/${database}`;
    return url.toString();
  }

  afterAll(() =>
    asSuperuser(async (client) => {
      for (const { role, database } of made) {
        await client.query(`drop database if exists ${database} with (force)`);
        await client.query(`drop role if exists ${role}`);
      }
    }),
  );

  it('starts when the owner may switch roles, and its plain handle sees no tenant rows', async () => {
    const url = await ownerDatabase(true);
    const handle = await openDatabase({ url, poolSize: 2 });
    try {
      const scope = await personalWorkspace(handle, { email: 'owner@example.com', name: 'O' });
      await handle.system('test setup', (tx) =>
        tx.db
          .insert(activityLogs)
          .values({ workspaceId: scope.workspaceId, level: 'info', category: 't', description: 'd' }),
      );
      expect(await handle.db.select().from(activityLogs)).toEqual([]);
      expect(await handle.tenant(scope, (tx) => tx.db.select().from(activityLogs))).toHaveLength(1);

      const [who] = await selectRows<{ role: string }>(handle.db, sql`select current_user as role`);
      expect(who?.role).toBe('adpilot_app');
    } finally {
      await handle.close();
    }
  });

  it('refuses to start, naming the GRANT to run, when the owner may not switch roles', async () => {
    const url = await ownerDatabase(false);
    const role = new URL(url).username;
    await expect(openDatabase({ url, poolSize: 2 })).rejects.toThrow(
      new RegExp(`may not switch to the role adpilot_app; as a superuser run: GRANT adpilot_app TO ${role}`),
    );
  });
});
