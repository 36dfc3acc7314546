import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './client.ts';
import { MIGRATIONS_FOLDER } from './migrate.ts';
import { createTestDatabase } from './testing.ts';
import { selectRows } from './transactions.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

const MIGRATION = readFileSync(join(MIGRATIONS_FOLDER, '0022_ai-usage-calendar-month.sql'), 'utf8');
const DAY = 86_400_000;

/** The database's first of this month (UTC), as the migration computes it. */
async function monthStart(): Promise<Date> {
  const [row] = await selectRows<{ start: string }>(handle.db, sql`select date_trunc('month', now(), 'UTC') as start`);
  return new Date(row?.start ?? '');
}

async function user(stripeSubscriptionId: string | null, counters: [Date, number][]): Promise<string> {
  return handle.system('migration fixture', async (tx) => {
    const [row] = await selectRows<{ id: string }>(
      tx.db,
      sql`insert into users (email, name, password_hash) values (${`u${Math.random()}@example.com`}, 'U', 'x')
          returning id`,
    );
    const id = row?.id ?? '';
    await tx.db.execute(sql`insert into subscriptions (user_id, plan_id, current_period_start, stripe_subscription_id)
      values (${id}, 'free', now() - interval '20 days', ${stripeSubscriptionId})`);
    for (const [start, used] of counters) {
      await tx.db.execute(sql`insert into usage_counters (user_id, period_start, ai_requests)
        values (${id}, ${start.toISOString()}, ${used})`);
    }
    return id;
  });
}

const counters = (userId: string) =>
  handle.system('migration check', (tx) =>
    selectRows<{ period_start: string; ai_requests: number }>(
      tx.db,
      sql`select period_start, ai_requests from usage_counters where user_id = ${userId} order by period_start`,
    ),
  );

describe('0022: AI usage moves to the calendar month', () => {
  it('keeps the count of each local user’s current plan month in this calendar month; Stripe users are left alone', async () => {
    const now = Date.now();
    const month = await monthStart();
    const local = await user(null, [
      [new Date(now - 50 * DAY), 12],
      [new Date(now - 20 * DAY), 17],
    ]);
    const stripe = await user('sub_1', [[new Date(now - 20 * DAY), 9]]);
    // Again, as the tables' owner (who migrates), on whichever engine the suite runs.
    await handle.system('migration under test', async (tx) => {
      await tx.db.execute(sql`set local role none`);
      for (const statement of MIGRATION.split('--> statement-breakpoint')) await tx.db.execute(sql.raw(statement));
    });
    const moved = await counters(local);
    expect(moved.find((row) => new Date(row.period_start).getTime() === month.getTime())?.ai_requests).toBe(17);
    // History stays as it was.
    expect(moved.map((row) => row.ai_requests)).toEqual(expect.arrayContaining([12, 17]));
    expect((await counters(stripe)).map((row) => row.ai_requests)).toEqual([9]);
  });
});
