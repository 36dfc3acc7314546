import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigration, databaseMigratedTo } from '../test/migration-fixture.ts';

const DAY = 86_400_000;

/** 0022, on a database made at the migration before it (usage then keyed by user), seeded and migrated. */
describe('0022: AI usage moves to the calendar month', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await databaseMigratedTo('0021_ad-account-min-daily-budget');
  });
  afterAll(() => db.close());

  /** The database's first of this month (UTC), as the migration computes it. */
  async function monthStart(): Promise<Date> {
    const { rows } = await db.query<{ start: string }>(`select date_trunc('month', now(), 'UTC') as start`);
    return new Date(rows[0]?.start ?? '');
  }

  async function user(stripeSubscriptionId: string | null, counters: [Date, number][]): Promise<string> {
    const { rows } = await db.query<{ id: string }>(
      `insert into users (email, name, password_hash) values ($1, 'U', 'x') returning id`,
      [`u${Math.random()}@example.com`],
    );
    const id = rows[0]?.id ?? '';
    await db.query(
      `insert into subscriptions (user_id, plan_id, current_period_start, stripe_subscription_id)
       values ($1, 'free', now() - interval '20 days', $2)`,
      [id, stripeSubscriptionId],
    );
    for (const [start, used] of counters) {
      await db.query(`insert into usage_counters (user_id, period_start, ai_requests) values ($1, $2, $3)`, [
        id,
        start.toISOString(),
        used,
      ]);
    }
    return id;
  }

  const counters = async (userId: string) =>
    (
      await db.query<{ period_start: string; ai_requests: number }>(
        `select period_start, ai_requests from usage_counters where user_id = $1 order by period_start`,
        [userId],
      )
    ).rows;

  it('keeps the count of each local user’s current plan month in this calendar month; Stripe users are left alone', async () => {
    const now = Date.now();
    const month = await monthStart();
    const local = await user(null, [
      [new Date(now - 50 * DAY), 12],
      [new Date(now - 20 * DAY), 17],
    ]);
    const stripe = await user('sub_1', [[new Date(now - 20 * DAY), 9]]);
    await applyMigration(db, '0022_ai-usage-calendar-month');
    const moved = await counters(local);
    expect(moved.find((row) => new Date(row.period_start).getTime() === month.getTime())?.ai_requests).toBe(17);
    // History stays as it was.
    expect(moved.map((row) => row.ai_requests)).toEqual(expect.arrayContaining([12, 17]));
    expect((await counters(stripe)).map((row) => row.ai_requests)).toEqual([9]);
  });
});
