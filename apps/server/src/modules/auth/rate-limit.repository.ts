import { rateLimitBuckets, type SystemTx, type Transactions } from '@adpilot/db';
import { eq, sql } from 'drizzle-orm';

/** Counters keyed before anyone signs in: they belong to no user, so they live on the named system path. */
export class RateLimitRepository {
  constructor(private readonly transactions: Transactions) {}

  private system<T>(work: (tx: SystemTx) => Promise<T>): Promise<T> {
    return this.transactions.system('attempt limits', work);
  }

  async find(key: string) {
    const [bucket] = await this.system((tx) =>
      tx.db.select().from(rateLimitBuckets).where(eq(rateLimitBuckets.key, key)),
    );
    return bucket;
  }

  /** One atomic upsert: counts in the current window, or opens a new window when the old one is over. */
  async increment(key: string, now: Date, resetAt: Date): Promise<void> {
    const nowSql = sql`${now.toISOString()}::timestamptz`;
    await this.system((tx) =>
      tx.db
        .insert(rateLimitBuckets)
        .values({ key, count: 1, resetAt })
        .onConflictDoUpdate({
          target: rateLimitBuckets.key,
          set: {
            count: sql`case when ${rateLimitBuckets.resetAt} <= ${nowSql} then 1 else ${rateLimitBuckets.count} + 1 end`,
            resetAt: sql`case when ${rateLimitBuckets.resetAt} <= ${nowSql} then ${resetAt.toISOString()}::timestamptz else ${rateLimitBuckets.resetAt} end`,
          },
        }),
    );
  }

  async delete(key: string): Promise<void> {
    await this.system((tx) => tx.db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, key)));
  }
}
