import { rateLimitBuckets, type SystemTx, type Transactions } from '@adpilot/db';
import { and, eq, gt, lt, or, sql } from 'drizzle-orm';

export interface Bucket {
  count: number;
  resetAt: Date;
}

/** Counters keyed before anyone signs in: they belong to no user, so they live on the named system path. */
export class RateLimitRepository {
  constructor(private readonly transactions: Transactions) {}

  private system<T>(work: (tx: SystemTx) => Promise<T>): Promise<T> {
    return this.transactions.system('attempt limits', work);
  }

  /**
   * Counts one attempt and answers the count it reached, in one statement: the upsert takes the row's lock, so
   * concurrent attempts each see a different count and no two of them can both be the last one allowed.
   */
  async take(key: string, now: Date, resetAt: Date): Promise<Bucket> {
    const nowSql = sql`${now.toISOString()}::timestamptz`;
    const [bucket] = await this.system((tx) =>
      tx.db
        .insert(rateLimitBuckets)
        .values({ key, count: 1, resetAt })
        .onConflictDoUpdate({
          target: rateLimitBuckets.key,
          set: {
            count: sql`case when ${rateLimitBuckets.resetAt} <= ${nowSql} then 1 else ${rateLimitBuckets.count} + 1 end`,
            resetAt: sql`case when ${rateLimitBuckets.resetAt} <= ${nowSql} then ${resetAt.toISOString()}::timestamptz else ${rateLimitBuckets.resetAt} end`,
          },
        })
        .returning({ count: rateLimitBuckets.count, resetAt: rateLimitBuckets.resetAt }),
    );
    if (!bucket) throw new Error('rate limit upsert returned no row');
    return bucket;
  }

  /** Gives one attempt back to a window still open (a sign-in that succeeded was no guess). */
  async refund(key: string, now: Date): Promise<void> {
    await this.system((tx) =>
      tx.db
        .update(rateLimitBuckets)
        .set({ count: sql`${rateLimitBuckets.count} - 1` })
        .where(and(eq(rateLimitBuckets.key, key), gt(rateLimitBuckets.count, 0), gt(rateLimitBuckets.resetAt, now))),
    );
  }

  async delete(key: string): Promise<void> {
    await this.system((tx) => tx.db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, key)));
  }

  /** Deletes a key and every key under it (`<key>:…`): an account's own bucket and its per-address ones. */
  async deleteTree(key: string): Promise<void> {
    await this.system((tx) =>
      tx.db
        .delete(rateLimitBuckets)
        .where(or(eq(rateLimitBuckets.key, key), sql`starts_with(${rateLimitBuckets.key}, ${`${key}:`})`)),
    );
  }

  /** Every window closed before `now`: the clean-up, in the caller's unit of work on the system path. */
  async purgeClosed(tx: SystemTx, now: Date): Promise<number> {
    const rows = await tx.db
      .delete(rateLimitBuckets)
      .where(lt(rateLimitBuckets.resetAt, now))
      .returning({ key: rateLimitBuckets.key });
    return rows.length;
  }
}
