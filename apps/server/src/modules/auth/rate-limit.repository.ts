import { rateLimitBuckets, type Database } from '@adpilot/db';
import { eq, sql } from 'drizzle-orm';

export class RateLimitRepository {
  constructor(private readonly db: Database) {}

  async find(key: string) {
    const [bucket] = await this.db.select().from(rateLimitBuckets).where(eq(rateLimitBuckets.key, key));
    return bucket;
  }

  /** One atomic upsert: counts in the current window, or opens a new window when the old one is over. */
  async increment(key: string, now: Date, resetAt: Date): Promise<void> {
    const nowSql = sql`${now.toISOString()}::timestamptz`;
    await this.db
      .insert(rateLimitBuckets)
      .values({ key, count: 1, resetAt })
      .onConflictDoUpdate({
        target: rateLimitBuckets.key,
        set: {
          count: sql`case when ${rateLimitBuckets.resetAt} <= ${nowSql} then 1 else ${rateLimitBuckets.count} + 1 end`,
          resetAt: sql`case when ${rateLimitBuckets.resetAt} <= ${nowSql} then ${resetAt.toISOString()}::timestamptz else ${rateLimitBuckets.resetAt} end`,
        },
      });
  }

  async delete(key: string): Promise<void> {
    await this.db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, key));
  }
}
