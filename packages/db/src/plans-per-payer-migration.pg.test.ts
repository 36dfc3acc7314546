import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from './migrate.ts';
import { applyMigration, databaseMigratedTo } from '../test/migration-fixture.ts';

const MIGRATION = '0036_plans-per-payer';

/**
 * 0036 on a database made at the migration before it (a subscription per workspace), seeded as an agency, a
 * co-owned workspace and a person on Free would have left it, migrated, and read back (ADR 0110).
 */
describe('0036: a plan belongs to its payer', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await databaseMigratedTo('0035_outbound-mail');
  });
  afterAll(() => db.close());

  const one = async <T>(query: string, params: unknown[] = []): Promise<T> => {
    const { rows } = await db.query<T>(query, params);
    if (!rows[0]) throw new Error(`no row: ${query}`);
    return rows[0];
  };

  /** A user and their personal workspace, as sign-up made them before 0036. */
  async function person(name: string): Promise<{ id: string; personal: string }> {
    const { id } = await one<{ id: string }>(
      `insert into users (email, name, password_hash) values ($1, $2, 'x') returning id`,
      [`${name}-${Math.random()}@example.com`, name],
    );
    const { id: personal } = await one<{ id: string }>(
      `insert into workspaces (name, personal, personal_owner_id) values ($1, true, $2) returning id`,
      [name, id],
    );
    await db.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
      personal,
      id,
    ]);
    return { id, personal };
  }

  async function shared(name: string, owners: string[], createdAt: string): Promise<string> {
    const { id } = await one<{ id: string }>(`insert into workspaces (name) values ($1) returning id`, [name]);
    for (const [i, owner] of owners.entries()) {
      await db.query(
        `insert into workspace_members (workspace_id, user_id, role, created_at) values ($1, $2, 'owner', $3)`,
        [id, owner, new Date(Date.parse(createdAt) + i * 1000).toISOString()],
      );
    }
    return id;
  }

  async function subscribe(
    workspaceId: string,
    plan: string,
    stripe: { customer: string; subscription: string } | null = null,
  ): Promise<void> {
    await db.query(
      `insert into subscriptions (workspace_id, plan_id, current_period_start, provider, stripe_customer_id,
         stripe_subscription_id, status)
       values ($1, $2, '2026-11-15T00:00:00Z', $3, $4, $5, 'active')`,
      [workspaceId, plan, stripe ? 'stripe' : 'local', stripe?.customer ?? null, stripe?.subscription ?? null],
    );
  }

  const counter = (workspaceId: string, used: number) =>
    db.query(`insert into usage_counters (workspace_id, period_start, ai_requests) values ($1, $2, $3)`, [
      workspaceId,
      '2026-11-15T00:00:00Z',
      used,
    ]);

  const subscriptionOf = (workspaceId: string) =>
    one<{
      plan_id: string;
      provider: string;
      stripe_customer_id: string | null;
      stripe_subscription_id: string | null;
    }>(
      `select plan_id, provider, stripe_customer_id, stripe_subscription_id from subscriptions where workspace_id = $1`,
      [workspaceId],
    );
  const payerOf = async (workspaceId: string) =>
    (await one<{ payer_id: string | null }>(`select payer_id from workspaces where id = $1`, [workspaceId])).payer_id;

  let agency: { id: string; personal: string };
  let partner: { id: string; personal: string };
  let solo: { id: string; personal: string };
  let clients: string[];
  let coOwned: string;

  beforeAll(async () => {
    agency = await person('Agency');
    partner = await person('Partner');
    solo = await person('Solo');
    // The agency: its own workspace on Free, three clients on Free, Business through Stripe and Pro.
    clients = [
      await shared('Client A', [agency.id], '2026-01-01T00:00:00Z'),
      await shared('Client B', [agency.id], '2026-01-02T00:00:00Z'),
      await shared('Client C', [agency.id], '2026-01-03T00:00:00Z'),
    ];
    await subscribe(agency.personal, 'free');
    await subscribe(clients[1] ?? '', 'business', { customer: 'cus_b', subscription: 'sub_b' });
    await subscribe(clients[2] ?? '', 'pro');
    await counter(agency.personal, 4);
    await counter(clients[1] ?? '', 7);
    await counter(clients[2] ?? '', 5);
    // The partner joined this one after the agency: the agency, its first owner, pays. The partner pays for Pro.
    coOwned = await shared('Joint', [agency.id, partner.id], '2026-02-01T00:00:00Z');
    await subscribe(partner.personal, 'pro', { customer: 'cus_p', subscription: 'sub_p' });
    // Solo never had a subscription row.
    await applyMigration(db, MIGRATION);
  });

  it('makes each workspace’s payer its person, or its first owner', async () => {
    expect(await payerOf(agency.personal)).toBe(agency.id);
    for (const id of clients) expect(await payerOf(id)).toBe(agency.id);
    expect(await payerOf(coOwned)).toBe(agency.id);
    expect(await payerOf(partner.personal)).toBe(partner.id);
    expect(await payerOf(solo.personal)).toBe(solo.id);
  });

  it('gives each payer the highest plan among their workspaces, its Stripe subscription with it', async () => {
    expect(await subscriptionOf(agency.personal)).toEqual({
      plan_id: 'business',
      provider: 'stripe',
      stripe_customer_id: 'cus_b',
      stripe_subscription_id: 'sub_b',
    });
    expect(await subscriptionOf(partner.personal)).toMatchObject({ plan_id: 'pro', stripe_subscription_id: 'sub_p' });
    expect((await db.query(`select 1 from subscriptions where workspace_id = $1`, [solo.personal])).rows).toEqual([]);
  });

  it('loses nothing: the row the best plan came from keeps the holder’s old state, the others stay as they were', async () => {
    expect(await subscriptionOf(clients[1] ?? '')).toEqual({
      plan_id: 'free',
      provider: 'local',
      stripe_customer_id: null,
      stripe_subscription_id: null,
    });
    expect(await subscriptionOf(clients[2] ?? '')).toMatchObject({ plan_id: 'pro' });
    const { n } = await one<{ n: number }>(`select count(*)::int as n from subscriptions`);
    expect(n).toBe(4);
  });

  it('pools the month’s AI requests on the holder’s row and keeps each workspace’s own', async () => {
    const { rows } = await db.query<{ workspace_id: string; ai_requests: number; pooled_ai_requests: number }>(
      `select workspace_id, ai_requests, pooled_ai_requests from usage_counters where period_start = $1`,
      ['2026-11-15T00:00:00Z'],
    );
    const of = (id: string) => rows.find((row) => row.workspace_id === id);
    expect(of(agency.personal)).toMatchObject({ ai_requests: 4, pooled_ai_requests: 16 });
    expect(of(clients[1] ?? '')).toMatchObject({ ai_requests: 7 });
    expect(of(clients[2] ?? '')).toMatchObject({ ai_requests: 5 });
  });

  it('changes nothing when its data step runs again', async () => {
    const before = await db.query(`select * from subscriptions order by workspace_id`);
    const counters = await db.query(`select * from usage_counters order by workspace_id`);
    const text = readFileSync(join(MIGRATIONS_FOLDER, `${MIGRATION}.sql`), 'utf8');
    const dataStep = text.slice(text.indexOf('-- hand-written:'));
    await db.transaction(async (tx) => {
      for (const statement of dataStep.split('--> statement-breakpoint'))
        if (statement.trim()) await tx.exec(statement);
    });
    expect((await db.query(`select * from subscriptions order by workspace_id`)).rows).toEqual(before.rows);
    expect((await db.query(`select * from usage_counters order by workspace_id`)).rows).toEqual(counters.rows);
  });
});
