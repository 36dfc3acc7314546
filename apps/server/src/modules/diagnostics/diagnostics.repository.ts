import { refreshTokens, selectRows, users, type Database, type SystemTx, type TenantTx } from '@adpilot/db';
import { inArray, sql } from 'drizzle-orm';

/** The Test page's probes. Probe users are ordinary rows, created and deleted in the same check. */
export class DiagnosticsRepository {
  /** `plain` is the handle with no unit of work: the application role with no user set. */
  constructor(private readonly plain: Database) {}

  /** The database's own version string (`PostgreSQL 18.0 …`). */
  async serverVersion(tx: SystemTx): Promise<string> {
    const [row] = await selectRows<{ version: string }>(
      tx.db,
      sql`select current_setting('server_version') as version`,
    );
    return row?.version ?? 'unknown';
  }

  /** Two users with no password that can be used (the hash matches nothing), for the row-level security probe. */
  createProbeUsers(tx: SystemTx, emails: [string, string]) {
    return tx.db
      .insert(users)
      .values(emails.map((email) => ({ email, name: 'Diagnostics probe', passwordHash: '!', role: 'user' as const })))
      .returning({ id: users.id });
  }

  async deleteUsers(tx: SystemTx, ids: string[]): Promise<void> {
    if (ids.length > 0) await tx.db.delete(users).where(inArray(users.id, ids));
  }

  /** A row the owner writes in a tenant table (a refresh token that can never be presented: its hash is random). */
  async insertOwnRow(tx: TenantTx, tokenHash: string, expiresAt: Date): Promise<void> {
    await tx.db.insert(refreshTokens).values({ userId: tx.userId, familyId: tx.userId, tokenHash, expiresAt });
  }

  /**
   * How many of `ownerId`'s rows this transaction sees, asked without the explicit user filter the repositories add:
   * only the database's row-level security stands between the reader and the rows.
   */
  async countRowsOf(tx: TenantTx, ownerId: string): Promise<number> {
    const [row] = await selectRows<{ count: number }>(
      tx.db,
      sql`select count(*)::int as count from refresh_tokens where user_id = ${ownerId}`,
    );
    return row?.count ?? 0;
  }

  /** The same question on the plain handle: no user set, as a request without a session would be. */
  async countRowsWithoutUser(ownerId: string): Promise<number> {
    const [row] = await selectRows<{ count: number }>(
      this.plain,
      sql`select count(*)::int as count from refresh_tokens where user_id = ${ownerId}`,
    );
    return row?.count ?? 0;
  }

  async countUsers(tx: SystemTx): Promise<number> {
    const [row] = await selectRows<{ count: number }>(tx.db, sql`select count(*)::int as count from users`);
    return row?.count ?? 0;
  }

  /** Up to `limit` plans, or null while the instance has no plans table (billing adds `subscription_plans`). */
  async listPlans(tx: SystemTx, limit: number): Promise<{ id: string; name: string }[] | null> {
    const [exists] = await selectRows<{ present: boolean }>(
      tx.db,
      sql`select to_regclass('public.subscription_plans') is not null as present`,
    );
    if (!exists?.present) return null;
    return selectRows<{ id: string; name: string }>(
      tx.db,
      sql`select id::text as id, name::text as name from subscription_plans order by id limit ${limit}`,
    );
  }
}
