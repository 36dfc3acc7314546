import { adEntities, type TenantTx } from '@adpilot/db';
import { and, eq, ne } from 'drizzle-orm';
import type { EntityLevel } from './ad-accounts.repository.ts';

/** What the mirror holds of an entity that a change outside AdPilot can move. */
export interface MirrorValue {
  externalId: string;
  level: EntityLevel;
  name: string;
  status: string;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
}

export interface ExternalChangeMark {
  externalId: string;
  at: Date;
  by: string | null;
}

/** The watchdog's reads and writes on `ad_entities`: the values a sync compares with Meta, and the last change found. */
export class ExternalChangesRepository {
  /** The account's entities as the mirror holds them, those Meta still has. */
  mirrorValues(tx: TenantTx, adAccountId: string): Promise<MirrorValue[]> {
    return tx.db
      .select({
        externalId: adEntities.externalId,
        level: adEntities.level,
        name: adEntities.name,
        status: adEntities.status,
        dailyBudget: adEntities.dailyBudget,
        lifetimeBudget: adEntities.lifetimeBudget,
      })
      .from(adEntities)
      .where(
        and(
          eq(adEntities.workspaceId, tx.workspaceId),
          eq(adEntities.adAccountId, adAccountId),
          ne(adEntities.status, 'DELETED'),
        ),
      );
  }

  /** Notes the last change made outside AdPilot on each entity, where the rules read it. */
  async mark(tx: TenantTx, adAccountId: string, marks: readonly ExternalChangeMark[]): Promise<void> {
    for (const mark of marks) {
      await tx.db
        .update(adEntities)
        .set({ externalChangeAt: mark.at, externalChangeBy: mark.by })
        .where(
          and(
            eq(adEntities.workspaceId, tx.workspaceId),
            eq(adEntities.adAccountId, adAccountId),
            eq(adEntities.externalId, mark.externalId),
          ),
        );
    }
  }
}
