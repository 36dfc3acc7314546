import { featureWaitlist } from '@adpilot/db';
import type { UserTx } from '@adpilot/db';
import { and, eq } from 'drizzle-orm';

/** The transaction's user's waitlist entries: row-level security plus an explicit filter on `tx.userId`. */
export class WaitlistRepository {
  /** Records the interest once; true when this call recorded it, false when it was already there. */
  async join(tx: UserTx, feature: string): Promise<boolean> {
    const inserted = await tx.db
      .insert(featureWaitlist)
      .values({ userId: tx.userId, feature })
      .onConflictDoNothing()
      .returning({ feature: featureWaitlist.feature });
    return inserted.length > 0;
  }

  async has(tx: UserTx, feature: string): Promise<boolean> {
    const [row] = await tx.db
      .select({ feature: featureWaitlist.feature })
      .from(featureWaitlist)
      .where(and(eq(featureWaitlist.userId, tx.userId), eq(featureWaitlist.feature, feature)));
    return Boolean(row);
  }
}
