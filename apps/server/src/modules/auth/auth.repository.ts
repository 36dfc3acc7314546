import { personOf } from '../../lib/scope.ts';
import {
  loginCodes,
  passwordResets,
  preparedStatement,
  refreshTokens,
  selectRows,
  users,
  type Database,
  type SystemTx,
  type PersonTx,
  type UserTx,
  type Transaction,
  type Transactions,
  type UserRow,
} from '@adpilot/db';
import { and, eq, gt, inArray, isNotNull, isNull, lt, notIlike, or, sql } from 'drizzle-orm';
import { isProbeEmail, PROBE_EMAIL_DOMAIN } from './probe-users.ts';
import type { LiveSession } from './session-cache.ts';

/** `GET /api/auth/me` on every page load: built once per connection (see `preparedStatement`). */
const ownUserStatement = preparedStatement((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('users_own'),
);

const liveLoginCode = (userId: string, codeHash: string, at: Date) =>
  and(
    eq(loginCodes.userId, userId),
    eq(loginCodes.codeHash, codeHash),
    isNull(loginCodes.usedAt),
    gt(loginCodes.expiresAt, at),
  );

/**
 * Queries of the sign-in flows. Most run before a user is known (by e-mail, by token hash), so each runs on the
 * named system path.
 */
export class AuthRepository {
  /** `plain` is the handle with no unit of work (the application role with no user set), for the RLS probe only. */
  constructor(
    private readonly transactions: Transactions,
    private readonly plain: Database,
  ) {}

  private system<T>(work: (tx: SystemTx) => Promise<T>): Promise<T> {
    return this.transactions.system('sign-in flows', work);
  }

  findUserByEmail(email: string): Promise<UserRow | undefined> {
    return this.system((tx) => tx.db.query.users.findFirst({ where: eq(users.email, email) }));
  }

  /** The signed-in user's own row, read as that user: row-level security lets nothing else through. */
  async ownUser(userId: string): Promise<UserRow | undefined> {
    const [row] = await this.transactions.user(userId, (tx) => ownUserStatement(tx.db).execute({ userId: tx.userId }));
    return row;
  }

  findUserById(id: string): Promise<UserRow | undefined> {
    return this.system((tx) => tx.db.query.users.findFirst({ where: eq(users.id, id) }));
  }

  /**
   * Creates a user in the caller's unit of work (sign-up makes the personal workspace in the same one); the first
   * user of the instance becomes its admin. The Test page's probe users do not count: a probe is never the first,
   * and one that exists for a moment does not make the owner's account the second (ADR 0086). Returns undefined on a
   * taken e-mail.
   */
  async createUser(
    { db: tx }: SystemTx,
    input: { name: string; email: string; passwordHash: string },
  ): Promise<UserRow | undefined> {
    // Serialises concurrent first registrations so exactly one of them becomes admin.
    await tx.execute(sql`select pg_advisory_xact_lock(4242002)`);
    const [existingUser] = await tx
      .select({ id: users.id })
      .from(users)
      .where(notIlike(users.email, `%@${PROBE_EMAIL_DOMAIN}`))
      .limit(1);
    const first = !existingUser && !isProbeEmail(input.email);
    const [row] = await tx
      .insert(users)
      .values({ ...input, role: first ? 'admin' : 'user' })
      .onConflictDoNothing({ target: users.email })
      .returning();
    return row;
  }

  async insertRefreshToken(input: {
    userId: string;
    familyId: string;
    tokenHash: string;
    expiresAt: Date;
    userAgent: string | null;
    ipAddress: string | null;
  }): Promise<void> {
    await this.system((tx) => tx.db.insert(refreshTokens).values(input));
  }

  findRefreshToken(tokenHash: string) {
    return this.system((tx) => tx.db.query.refreshTokens.findFirst({ where: eq(refreshTokens.tokenHash, tokenHash) }));
  }

  /** Marks a token used; false when it was already used or revoked (a concurrent or replayed refresh). */
  async consumeRefreshToken(id: string, at: Date): Promise<boolean> {
    const rows = await this.system((tx) =>
      tx.db
        .update(refreshTokens)
        .set({ usedAt: at })
        .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
        .returning({ id: refreshTokens.id }),
    );
    return rows.length === 1;
  }

  async revokeFamily(familyId: string, at: Date): Promise<void> {
    await this.system((tx) =>
      tx.db
        .update(refreshTokens)
        .set({ revokedAt: at })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt))),
    );
  }

  /**
   * A live session's user role and latest expiry, or null when the session has ended. A session is alive while its
   * family has an unrevoked, unexpired token; the role is read with it, so a changed role applies at once, not when
   * the access token expires.
   */
  async liveSession(familyId: string, userId: string, at: Date): Promise<LiveSession | null> {
    const [row] = await this.transactions.user(userId, (tx) =>
      tx.db
        .select({
          role: users.role,
          expiresAt: sql<Date>`max(${refreshTokens.expiresAt})`.mapWith(refreshTokens.expiresAt),
        })
        .from(refreshTokens)
        .innerJoin(users, eq(users.id, refreshTokens.userId))
        .where(
          and(
            eq(refreshTokens.familyId, familyId),
            eq(refreshTokens.userId, tx.userId),
            isNull(refreshTokens.revokedAt),
            gt(refreshTokens.expiresAt, at),
          ),
        )
        .groupBy(users.role),
    );
    return row ? { role: row.role, expiresAt: row.expiresAt } : null;
  }

  /** Sends `payload` on a channel, delivered to every listening process once this commits. */
  async notify(channel: string, payload: string): Promise<void> {
    await this.system((tx) => tx.db.execute(sql`select pg_notify(${channel}, ${payload})`));
  }

  async insertPasswordReset(input: { userId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
    await this.system((tx) => tx.db.insert(passwordResets).values(input));
  }

  async insertLoginCode(input: { userId: string; codeHash: string; expiresAt: Date }): Promise<void> {
    await this.system((tx) => tx.db.insert(loginCodes).values(input));
  }

  /** Whether the user has this sign-in code unused and unexpired (read before the password is checked). */
  async isLoginCodeLive(userId: string, codeHash: string, at: Date): Promise<boolean> {
    const [row] = await this.system((tx) =>
      tx.db
        .select({ id: loginCodes.id })
        .from(loginCodes)
        .where(liveLoginCode(userId, codeHash, at)),
    );
    return Boolean(row);
  }

  /**
   * Takes a sign-in code once: of concurrent sign-ins with one code, a single update finds it unused. Its user's
   * other codes die with it. False when it was used, expired or never issued.
   */
  takeLoginCode(userId: string, codeHash: string, at: Date): Promise<boolean> {
    return this.system(async (tx) => {
      const [taken] = await tx.db
        .update(loginCodes)
        .set({ usedAt: at })
        .where(liveLoginCode(userId, codeHash, at))
        .returning({ id: loginCodes.id });
      if (!taken) return false;
      await tx.db
        .update(loginCodes)
        .set({ usedAt: at })
        .where(and(eq(loginCodes.userId, userId), isNull(loginCodes.usedAt)));
      return true;
    });
  }

  /** Whether a reset link is unused and unexpired: a cheap check before the new password is hashed. */
  async isPasswordResetLive(tokenHash: string, at: Date): Promise<boolean> {
    const [row] = await this.system((tx) =>
      tx.db
        .select({ id: passwordResets.id })
        .from(passwordResets)
        .where(
          and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, at)),
        ),
    );
    return Boolean(row);
  }

  /**
   * Sets a new password with a reset link, in one transaction: takes the link once, kills the user's other unused
   * links, stores the password and revokes every session. Returns the user, or undefined if the link is unknown,
   * used or expired. The user's row is locked first, so two links of one user used at once are taken one after the
   * other and the second finds itself already spent.
   */
  resetPassword(input: {
    tokenHash: string;
    passwordHash: string;
    at: Date;
  }): Promise<{ id: string; email: string } | undefined> {
    const { tokenHash, passwordHash, at } = input;
    return this.system(async ({ db: tx }) => {
      const [user] = await tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(
          eq(
            users.id,
            tx
              .select({ userId: passwordResets.userId })
              .from(passwordResets)
              .where(eq(passwordResets.tokenHash, tokenHash)),
          ),
        )
        .for('update');
      if (!user) return undefined;
      const [taken] = await tx
        .update(passwordResets)
        .set({ usedAt: at })
        .where(
          and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, at)),
        )
        .returning({ id: passwordResets.id });
      if (!taken) return undefined;
      await tx
        .update(passwordResets)
        .set({ usedAt: at })
        .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
      await tx.update(users).set({ passwordHash, updatedAt: at }).where(eq(users.id, user.id));
      await tx
        .update(refreshTokens)
        .set({ revokedAt: at })
        .where(and(eq(refreshTokens.userId, user.id), isNull(refreshTokens.revokedAt)));
      return user;
    });
  }

  // My account (issue 31): the person's own row and sessions, read and written as that person.

  /**
   * The user's live sessions: one per refresh-token family with an unrevoked, unexpired token; signed in at its
   * first token, last seen at its newest (a refresh rotates it), the device and address of the newest.
   */
  liveSessionsOf(userId: string, at: Date) {
    return this.transactions.user(userId, async (tx) => {
      const rows = await tx.db
        .select({
          familyId: refreshTokens.familyId,
          createdAt: refreshTokens.createdAt,
          userAgent: refreshTokens.userAgent,
          ipAddress: refreshTokens.ipAddress,
          live: sql<boolean>`${refreshTokens.revokedAt} is null and ${refreshTokens.expiresAt} > ${at}`,
        })
        .from(refreshTokens)
        .where(eq(refreshTokens.userId, tx.userId))
        .orderBy(refreshTokens.createdAt);
      const families = new Map<
        string,
        { id: string; signedInAt: Date; lastSeenAt: Date; device: string | null; address: string | null; live: boolean }
      >();
      for (const row of rows) {
        const family = families.get(row.familyId);
        if (!family) {
          families.set(row.familyId, {
            id: row.familyId,
            signedInAt: row.createdAt,
            lastSeenAt: row.createdAt,
            device: row.userAgent,
            address: row.ipAddress,
            live: row.live,
          });
          continue;
        }
        family.lastSeenAt = row.createdAt;
        family.device = row.userAgent ?? family.device;
        family.address = row.ipAddress ?? family.address;
        family.live ||= row.live;
      }
      return [...families.values()].filter((family) => family.live);
    });
  }

  /** Revokes one of the user's own sessions; false when no live session of theirs has this id. */
  async revokeOwnFamily(userId: string, familyId: string, at: Date): Promise<boolean> {
    const rows = await this.transactions.user(userId, (tx) =>
      tx.db
        .update(refreshTokens)
        .set({ revokedAt: at })
        .where(
          and(
            eq(refreshTokens.userId, tx.userId),
            eq(refreshTokens.familyId, familyId),
            isNull(refreshTokens.revokedAt),
          ),
        )
        .returning({ id: refreshTokens.id }),
    );
    return rows.length > 0;
  }

  /**
   * A new password for the signed-in user, with every session but `keepFamilyId` revoked, in one transaction (the
   * user's row locked, so two changes at once apply one after the other).
   */
  async changePassword(userId: string, passwordHash: string, keepFamilyId: string, at: Date): Promise<void> {
    await this.transactions.user(userId, async ({ db: tx, userId: id }) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
      await tx.update(users).set({ passwordHash, updatedAt: at }).where(eq(users.id, id));
      await tx
        .update(refreshTokens)
        .set({ revokedAt: at })
        .where(
          and(
            eq(refreshTokens.userId, id),
            isNull(refreshTokens.revokedAt),
            sql`${refreshTokens.familyId} <> ${keepFamilyId}`,
          ),
        );
    });
  }

  async rename(userId: string, name: string, at: Date): Promise<UserRow | undefined> {
    const [row] = await this.transactions.user(userId, (tx) =>
      tx.db.update(users).set({ name, updatedAt: at }).where(eq(users.id, tx.userId)).returning(),
    );
    return row;
  }

  // Queries other modules compose into their own unit of work, through AuthService (ADR 0066).

  /** The user's row locked for the caller's unit of work (an account's deletion), undefined when gone. */
  async lockUser(tx: SystemTx, id: string): Promise<UserRow | undefined> {
    const [row] = await tx.db.select().from(users).where(eq(users.id, id)).for('update');
    return row;
  }

  /**
   * Every tenant's spent rows: reset links expired or used, refresh tokens expired or revoked before
   * `keepRevokedUntil` (rotated and revoked tokens are kept a while: a replay of one must still be recognised as
   * reuse). The clean-up, on the system path.
   */
  async purgeExpired(
    tx: SystemTx,
    now: Date,
    keepRevokedUntil: Date,
  ): Promise<{ passwordResets: number; refreshTokens: number; loginCodes: number }> {
    const resets = await tx.db
      .delete(passwordResets)
      .where(or(lt(passwordResets.expiresAt, now), isNotNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    const tokens = await tx.db
      .delete(refreshTokens)
      .where(or(lt(refreshTokens.expiresAt, now), lt(refreshTokens.revokedAt, keepRevokedUntil)))
      .returning({ id: refreshTokens.id });
    const codes = await tx.db
      .delete(loginCodes)
      .where(or(lt(loginCodes.expiresAt, now), isNotNull(loginCodes.usedAt)))
      .returning({ id: loginCodes.id });
    return { passwordResets: resets.length, refreshTokens: tokens.length, loginCodes: codes.length };
  }

  /** The user's address and the one a confirmation link proved, with when (ADR 0054). */
  async addressOf(
    tx: PersonTx,
  ): Promise<{ email: string; verifiedEmail: string | null; verifiedAt: Date | null } | undefined> {
    const [row] = await tx.db
      .select({ email: users.email, verifiedEmail: users.verifiedEmail, verifiedAt: users.emailVerifiedAt })
      .from(users)
      .where(eq(users.id, personOf(tx)));
    return row;
  }

  /** Marks `email` verified now, only while it is still the user's address; false when it no longer is. */
  async markEmailVerified(tx: SystemTx, userId: string, email: string): Promise<boolean> {
    const [user] = await tx.db
      .update(users)
      .set({ verifiedEmail: email, emailVerifiedAt: sql`now()` })
      .where(and(eq(users.id, userId), eq(users.email, email)))
      .returning({ id: users.id });
    return user !== undefined;
  }

  /** The addresses of the given users that a confirmation link proved, lower-cased (ADR 0054, 0092). */
  async verifiedEmails(tx: SystemTx, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await tx.db
      .select({ email: users.email })
      .from(users)
      .where(and(inArray(users.id, [...ids]), eq(users.verifiedEmail, users.email)));
    return rows.map((row) => row.email.toLowerCase());
  }

  async emails(tx: SystemTx, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await tx.db
      .select({ email: users.email })
      .from(users)
      .where(inArray(users.id, [...ids]));
    return rows.map((row) => row.email);
  }

  /** Names and addresses of the given users (a workspace's members list). */
  profiles(tx: SystemTx, ids: readonly string[]): Promise<{ id: string; name: string; email: string }[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return tx.db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(inArray(users.id, [...ids]));
  }

  async userExists(tx: SystemTx, id: string): Promise<boolean> {
    const [user] = await tx.db.select({ id: users.id }).from(users).where(eq(users.id, id));
    return user !== undefined;
  }

  async adminExists(tx: SystemTx): Promise<boolean> {
    const [row] = await tx.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
    return row !== undefined;
  }

  async countUsers(tx: SystemTx): Promise<number> {
    const [row] = await selectRows<{ count: number }>(tx.db, sql`select count(*)::int as count from users`);
    return row?.count ?? 0;
  }

  /** Two users with no password that can be used (the hash matches nothing), for the row-level security probe. */
  createProbeUsers(tx: SystemTx, emails: [string, string]): Promise<{ id: string }[]> {
    return tx.db
      .insert(users)
      .values(emails.map((email) => ({ email, name: 'Diagnostics probe', passwordHash: '!', role: 'user' as const })))
      .returning({ id: users.id });
  }

  async deleteUsers(tx: SystemTx, ids: string[]): Promise<void> {
    if (ids.length > 0) await tx.db.delete(users).where(inArray(users.id, ids));
  }

  /** A row the user owns in a tenant table: a refresh token that can never be presented (its hash is random). */
  async insertProbeToken(tx: UserTx, tokenHash: string, expiresAt: Date): Promise<void> {
    await tx.db.insert(refreshTokens).values({ userId: tx.userId, familyId: tx.userId, tokenHash, expiresAt });
  }

  /**
   * How many of `ownerId`'s refresh tokens this transaction sees, asked without the explicit user filter the other
   * queries add: only the database's row-level security stands between the reader and the rows.
   */
  countTokensOf(tx: UserTx, ownerId: string): Promise<number> {
    return countTokens(tx.db, ownerId);
  }

  /** The same question on the plain handle: no user set, as a request without a session would be. */
  countTokensWithoutUser(ownerId: string): Promise<number> {
    return countTokens(this.plain, ownerId);
  }
}

/** How many of `ownerId`'s refresh tokens `db` sees, with no filter of its own: the probe's one question. */
async function countTokens(db: Database | Transaction, ownerId: string): Promise<number> {
  const [row] = await selectRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from refresh_tokens where user_id = ${ownerId}`,
  );
  return row?.count ?? 0;
}
