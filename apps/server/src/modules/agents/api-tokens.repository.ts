import { apiTokens, oauthClients, type ApiTokenRow, type SystemTx, type TenantTx } from '@adpilot/db';
import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';

export interface NewCredential {
  kind: ApiTokenRow['kind'];
  name: string;
  scopes: string[];
  tokenHash: string;
  hint: string | null;
  tokenExpiresAt: Date | null;
  refreshHash: string | null;
  clientId: string | null;
  resource: string | null;
  expiresAt: Date | null;
  createdBy: string;
  createdAt: Date;
}

/** A credential with the name and redirect URIs of its OAuth client, when it has one. */
export interface CredentialWithClient {
  row: ApiTokenRow;
  client: { name: string; redirectUris: string[] } | null;
}

/** Channel a revocation is announced on, so every API process ends the credential's open MCP sessions at once. */
export const CREDENTIALS_CHANNEL = 'adpilot_agent_credentials';

const live = (now: Date) =>
  and(isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)));

/**
 * Agent credentials (ADR 0150): a workspace's tokens and grants, listed and revoked in its unit of work, and found by
 * their secret's hash on the system path (a request names no workspace before its credential is known).
 */
export class ApiTokensRepository {
  /** The workspace's credentials not revoked (expired ones too, so they can be seen and removed), newest first. */
  listIn(tx: TenantTx): Promise<ApiTokenRow[]> {
    return tx.db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.workspaceId, tx.workspaceId), isNull(apiTokens.revokedAt)))
      .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  }

  /** The OAuth clients of these ids (their names and redirect URIs), on the system path: no workspace owns them. */
  async clients(tx: SystemTx, ids: readonly string[]): Promise<Map<string, { name: string; redirectUris: string[] }>> {
    if (ids.length === 0) return new Map();
    const rows = await tx.db
      .select({ id: oauthClients.id, name: oauthClients.name, redirectUris: oauthClients.redirectUris })
      .from(oauthClients)
      .where(inArray(oauthClients.id, [...ids]));
    return new Map(rows.map(({ id, ...client }) => [id, client]));
  }

  /** Serialises the token creations of one workspace until the unit of work ends (the count below stays true). */
  async lockCreation(tx: TenantTx): Promise<void> {
    await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext('api_tokens'), hashtext(${tx.workspaceId}))`);
  }

  async countLiveTokensIn(tx: TenantTx, now: Date): Promise<number> {
    return tx.db.$count(
      apiTokens,
      and(eq(apiTokens.workspaceId, tx.workspaceId), eq(apiTokens.kind, 'token'), live(now)),
    );
  }

  async insert(tx: TenantTx, fields: NewCredential): Promise<ApiTokenRow> {
    const [row] = await tx.db
      .insert(apiTokens)
      .values({ ...fields, workspaceId: tx.workspaceId })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async find(tx: TenantTx, id: string): Promise<ApiTokenRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.id, id), eq(apiTokens.workspaceId, tx.workspaceId), isNull(apiTokens.revokedAt)));
    return row;
  }

  /** Revokes a credential of the workspace and announces it; false when there was none to revoke. */
  async revoke(tx: TenantTx, id: string, at: Date): Promise<ApiTokenRow | undefined> {
    const [row] = await tx.db
      .update(apiTokens)
      .set({ revokedAt: at })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.workspaceId, tx.workspaceId), isNull(apiTokens.revokedAt)))
      .returning();
    if (row) await announceRevocation(tx, row.id);
    return row;
  }

  // ——— The system path: authentication and the OAuth grants ———

  /** The credential a bearer secret's hash names, revoked or not (the caller judges), with its client's name. */
  async findByHash(tx: SystemTx, tokenHash: string): Promise<CredentialWithClient | undefined> {
    const [found] = await tx.db
      .select({ row: apiTokens, clientName: oauthClients.name, redirectUris: oauthClients.redirectUris })
      .from(apiTokens)
      .leftJoin(oauthClients, eq(oauthClients.id, apiTokens.clientId))
      .where(eq(apiTokens.tokenHash, tokenHash));
    if (!found) return undefined;
    const { row, clientName, redirectUris } = found;
    return { row, client: clientName !== null && redirectUris !== null ? { name: clientName, redirectUris } : null };
  }

  /** Marks the credential used now, unless it was marked in the last `coarseMs` (one write a minute, not per call). */
  async touch(tx: SystemTx, id: string, now: Date, coarseMs: number): Promise<void> {
    await tx.db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiTokens.id, id),
          or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, new Date(now.getTime() - coarseMs))),
        ),
      );
  }

  async insertGrant(tx: SystemTx, workspaceId: string, fields: NewCredential): Promise<ApiTokenRow> {
    const [row] = await tx.db
      .insert(apiTokens)
      .values({ ...fields, workspaceId })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** The grant a refresh token's hash names, locked until the unit of work ends (one rotation at a time). */
  async lockByRefreshHash(tx: SystemTx, refreshHash: string): Promise<ApiTokenRow | undefined> {
    const [row] = await tx.db.select().from(apiTokens).where(eq(apiTokens.refreshHash, refreshHash)).for('update');
    return row;
  }

  /** A grant's new access and refresh tokens: the previous ones stop working with this statement. */
  async rotate(
    tx: SystemTx,
    id: string,
    secrets: { tokenHash: string; tokenExpiresAt: Date; refreshHash: string },
  ): Promise<void> {
    await tx.db.update(apiTokens).set(secrets).where(eq(apiTokens.id, id));
  }

  async revokeOnSystemPath(tx: SystemTx, id: string, at: Date): Promise<void> {
    const rows = await tx.db
      .update(apiTokens)
      .set({ revokedAt: at })
      .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    if (rows.length > 0) await announceRevocation(tx, id);
  }
}

/** Told to every listening process once the revoking unit of work commits. */
async function announceRevocation(tx: TenantTx | SystemTx, id: string): Promise<void> {
  await tx.db.execute(sql`select pg_notify(${CREDENTIALS_CHANNEL}, ${id})`);
}
