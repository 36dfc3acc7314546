import {
  apiTokens,
  oauthClients,
  oauthCodes,
  type OAuthClientRow,
  type OAuthCodeRow,
  type SystemTx,
} from '@adpilot/db';
import { and, eq, isNotNull, isNull, lt, notExists, or } from 'drizzle-orm';

export interface NewCode {
  codeHash: string;
  clientId: string;
  userId: string;
  workspaceId: string;
  scopes: string[];
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  expiresAt: Date;
}

/** OAuth clients and authorization codes (ADR 0153): the system path only, as no workspace owns them yet. */
export class OAuthRepository {
  async insertClient(tx: SystemTx, fields: { name: string; redirectUris: string[]; createdAt: Date }) {
    const [row] = await tx.db.insert(oauthClients).values(fields).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async client(tx: SystemTx, id: string): Promise<OAuthClientRow | undefined> {
    const [row] = await tx.db.select().from(oauthClients).where(eq(oauthClients.id, id));
    return row;
  }

  async insertCode(tx: SystemTx, fields: NewCode): Promise<void> {
    await tx.db.insert(oauthCodes).values(fields);
  }

  /**
   * Spends a code: marks it used and answers it, or nothing when it is unknown or was spent already. One statement,
   * so of two exchanges of the same code exactly one gets it.
   */
  async spendCode(tx: SystemTx, codeHash: string, at: Date): Promise<OAuthCodeRow | undefined> {
    const [row] = await tx.db
      .update(oauthCodes)
      .set({ usedAt: at })
      .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.usedAt)))
      .returning();
    return row;
  }

  /** Codes past their ten minutes, or spent (the maintenance purge). */
  async purgeCodes(tx: SystemTx, now: Date): Promise<number> {
    const rows = await tx.db
      .delete(oauthCodes)
      .where(or(lt(oauthCodes.expiresAt, now), isNotNull(oauthCodes.usedAt)))
      .returning({ id: oauthCodes.id });
    return rows.length;
  }

  /** Clients registered before `before` that nobody ever granted a workspace (a registration left unfinished). */
  async purgeUngrantedClients(tx: SystemTx, before: Date): Promise<number> {
    const rows = await tx.db
      .delete(oauthClients)
      .where(
        and(
          lt(oauthClients.createdAt, before),
          notExists(tx.db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.clientId, oauthClients.id))),
        ),
      )
      .returning({ id: oauthClients.id });
    return rows.length;
  }
}
