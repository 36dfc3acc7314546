import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigration, databaseMigratedTo } from '../test/migration-fixture.ts';

/**
 * 0025 moves every user's rows into their personal workspace (ADR 0070). Made on a database at 0024, seeded the old
 * way (rows keyed by user), then migrated and read back row for row.
 */
describe('0025: the tenant moves from the user to the workspace', () => {
  let db: PGlite;
  const users: Record<'alice' | 'bob', string> = { alice: '', bob: '' };
  const personal: Record<'alice' | 'bob', string> = { alice: '', bob: '' };

  const one = async <T>(query: string, params: unknown[] = []): Promise<T> => {
    const { rows } = await db.query<T>(query, params);
    if (!rows[0]) throw new Error(`no row: ${query}`);
    return rows[0];
  };

  beforeAll(async () => {
    db = await databaseMigratedTo('0024_workspaces-personal');
    for (const name of ['alice', 'bob'] as const) {
      const { id } = await one<{ id: string }>(
        `insert into users (email, name, password_hash) values ($1, $2, 'x') returning id`,
        [`${name}@example.com`, name],
      );
      users[name] = id;
      // As sign-up made them after 0024: the personal workspace, the user its owner.
      const { id: workspace } = await one<{ id: string }>(
        `insert into workspaces (name, personal, personal_owner_id) values ($1, true, $2) returning id`,
        [name, id],
      );
      personal[name] = workspace;
      await db.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
        workspace,
        id,
      ]);
      const { id: account } = await one<{ id: string }>(
        `insert into ad_accounts (user_id, facebook_account_id, facebook_account_name, meta_account_status, currency,
           timezone, access_token_enc) values ($1, '1001', 'Shop', 1, 'THB', 'Asia/Bangkok', 'v1.x') returning id`,
        [id],
      );
      await db.query(
        `insert into ad_entities (user_id, ad_account_id, level, external_id, name, status, effective_status)
         values ($1, $2, 'campaign', 'c1', 'Campaign', 'ACTIVE', 'ACTIVE')`,
        [id, account],
      );
      await db.query(
        `insert into insights_daily (user_id, ad_account_id, level, entity_external_id, date, spend)
         values ($1, $2, 'campaign', 'c1', '2026-11-01', 12.5)`,
        [id, account],
      );
      const { id: rule } = await one<{ id: string }>(
        `insert into automation_rules (user_id, name, definition) values ($1, 'Stop loss', '{}') returning id`,
        [id],
      );
      const { id: run } = await one<{ id: string }>(
        `insert into rule_runs (user_id, rule_id, slot, trigger) values ($1, $2, 's1', 'schedule') returning id`,
        [id, rule],
      );
      await db.query(
        `insert into rule_actions (user_id, run_id, rule_id, ad_account_id, slot, action_type, entity_level,
           entity_external_id, entity_name, target_level, target_external_id, target_name, currency, state, explanation)
         values ($1, $2, $3, $4, 's1', 'pause', 'campaign', 'c1', 'Campaign', 'campaign', 'c1', 'Campaign', 'THB',
           'applied', '{}')`,
        [id, run, rule, account],
      );
      for (const description of ['first', 'second'])
        await db.query(
          `insert into activity_logs (user_id, level, category, description) values ($1, 'info', 'note', $2)`,
          [id, `${name} ${description}`],
        );
      await db.query(`insert into subscriptions (user_id, plan_id, current_period_start) values ($1, 'pro', now())`, [
        id,
      ]);
      await db.query(
        `insert into usage_counters (user_id, period_start, ai_requests) values ($1, date_trunc('month', now()), 7)`,
        [id],
      );
      await db.query(
        `insert into oauth_states (user_id, state_hash, provider, redirect_uri, expires_at)
         values ($1, $2, 'meta', 'http://x', now() + interval '1 hour')`,
        [id, `hash-${name}`],
      );
    }
    await db.query(`insert into billing_events (id, type, user_id) values ('evt_1', 'invoice.paid', $1)`, [
      users.alice,
    ]);
    await db.query(`insert into billing_events (id, type, user_id) values ('evt_none', 'invoice.paid', null)`);
    await applyMigration(db, '0025_workspace-tenant');
  });
  afterAll(() => db.close());

  const tables = [
    'ad_accounts',
    'ad_entities',
    'insights_daily',
    'automation_rules',
    'rule_runs',
    'rule_actions',
    'activity_logs',
    'subscriptions',
    'usage_counters',
    'oauth_states',
    'activity_log_counters',
  ];

  it('puts every row of a user in that user’s personal workspace, none lost and none crossed', async () => {
    for (const table of tables) {
      const { rows } = await db.query<{ workspace_id: string; n: number }>(
        `select workspace_id, count(*)::int as n from ${table} group by workspace_id order by workspace_id`,
      );
      const expected = table === 'activity_logs' ? 2 : 1;
      expect(Object.fromEntries(rows.map((row) => [row.workspace_id, row.n])), table).toEqual({
        [personal.alice]: expected,
        [personal.bob]: expected,
      });
    }
    const { rows: events } = await db.query<{ id: string; workspace_id: string | null }>(
      `select id, workspace_id from billing_events order by id`,
    );
    expect(events).toEqual([
      { id: 'evt_1', workspace_id: personal.alice },
      { id: 'evt_none', workspace_id: null },
    ]);
  });

  it('keeps the values the rows had: the plan, the month’s AI usage, the spend, the log’s numbering', async () => {
    const sub = await one<{ plan_id: string }>(`select plan_id from subscriptions where workspace_id = $1`, [
      personal.bob,
    ]);
    expect(sub.plan_id).toBe('pro');
    const usage = await one<{ ai_requests: number }>(`select ai_requests from usage_counters where workspace_id = $1`, [
      personal.bob,
    ]);
    expect(usage.ai_requests).toBe(7);
    const spend = await one<{ spend: string }>(`select spend::text from insights_daily where workspace_id = $1`, [
      personal.alice,
    ]);
    expect(Number(spend.spend)).toBe(12.5);
    const { rows: log } = await db.query<{ seq: number; description: string }>(
      `select seq::int, description from activity_logs where workspace_id = $1 order by seq`,
      [personal.alice],
    );
    expect(log).toEqual([
      { seq: 1, description: 'alice first' },
      { seq: 2, description: 'alice second' },
    ]);
    // The next entry continues the workspace's numbering, through the trigger now keyed by workspace.
    await db.query(
      `insert into activity_logs (workspace_id, level, category, description) values ($1, 'info', 'note', 'third')`,
      [personal.alice],
    );
    const next = await one<{ seq: number }>(`select seq::int from activity_logs where description = 'third'`);
    expect(next.seq).toBe(3);
    const state = await one<{ user_id: string; workspace_id: string }>(
      `select user_id, workspace_id from oauth_states where state_hash = 'hash-bob'`,
    );
    expect(state).toEqual({ user_id: users.bob, workspace_id: personal.bob });
  });

  it('leaves no user_id on a workspace table, and gives the plans their seats', async () => {
    const { rows } = await db.query<{ table_name: string }>(
      `select table_name from information_schema.columns where column_name = 'user_id' and table_schema = 'public'
       order by table_name`,
    );
    expect(rows.map((row) => row.table_name)).toEqual([
      'email_verifications',
      'feature_waitlist',
      'notification_settings',
      'oauth_states',
      'password_resets',
      'refresh_tokens',
      'workspace_members',
    ]);
    const { rows: seats } = await db.query<{ id: string; seats: number }>(
      `select id, seats from subscription_plans order by sort_order`,
    );
    expect(seats).toEqual([
      { id: 'free', seats: 1 },
      { id: 'pro', seats: 3 },
      { id: 'business', seats: 10 },
      { id: 'enterprise', seats: -1 },
    ]);
  });
});
