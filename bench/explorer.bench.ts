// The explorer's list (issue 28, GET /api/entities' unit of work): one account of 50 campaigns × 10 ad sets × 10 ads
// (5,000 ads) with 90 days of daily insights at every level (499,500 rows), 1,000 ledger rows of one active rule and
// a timed hold; then every level × sort (spend, CPA, ROAS, name, budget, status), last 30 days against the 30 before,
// a page of 100, `BENCH_ROUNDS` (default 20) rounds each, through the entities service as the route calls it.
// p50 and p99 over all of them. On PGlite by default; on Postgres when TEST_DATABASE_URL names a server. One line.
import { addDays, ENTITY_LEVELS, localDate, type EntityListQuery } from '@adpilot/contracts';
import { createTestDatabase } from '@adpilot/db/testing';
import { sql } from 'drizzle-orm';
import { loadavg } from 'node:os';
import { AdMirrorRepository } from '../apps/server/src/modules/ad-accounts/ad-mirror.repository.ts';
import { AdMirrorService } from '../apps/server/src/modules/ad-accounts/ad-mirror.service.ts';
import { EntityReadRepository } from '../apps/server/src/modules/ad-accounts/entity-read.repository.ts';
import { EntityReadService } from '../apps/server/src/modules/ad-accounts/entity-read.service.ts';
import { EntitiesService } from '../apps/server/src/modules/entities/entities.service.ts';
import { RulesRepository } from '../apps/server/src/modules/rules/definitions/rules.repository.ts';
import { EntityHistoryService } from '../apps/server/src/modules/rules/runs/entity-history.repository.ts';
import { EntityKnowledgeService } from '../apps/server/src/modules/rules/runs/entity-knowledge.repository.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const DAYS = 90;
const ZONE = 'Asia/Bangkok';
const engine = process.env.TEST_DATABASE_URL ? 'Postgres' : 'PGlite';
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

const database = await createTestDatabase();
try {
  const now = new Date();
  const today = localDate(ZONE, now.getTime());
  const first = addDays(today, -DAYS);
  const seedStarted = performance.now();
  const ids = await database.system('explorer bench seed', async (tx) => {
    const one = async (query: ReturnType<typeof sql>) =>
      ((await tx.db.execute(query)) as unknown as { rows: { id: string }[] }).rows[0]!.id;
    const user = await one(
      sql`insert into users (email, name, password_hash) values (${`bench-${Date.now()}@example.com`}, 'Bench', 'x') returning id`,
    );
    const workspace = await one(sql`insert into workspaces (name) values ('Bench') returning id`);
    await tx.db.execute(
      sql`insert into workspace_members (workspace_id, user_id, role) values (${workspace}::uuid, ${user}::uuid, 'owner')`,
    );
    const account = await one(sql`
      insert into ad_accounts (workspace_id, facebook_account_id, facebook_account_name, meta_account_status, currency,
        timezone, access_token_enc, last_sync) values (${workspace}::uuid, '1', 'Bench account', 1, 'THB', ${ZONE}, 'x', now())
      returning id`);
    // 50 campaigns (the first 10 under campaign budget), 10 ad sets each, 10 ads each ad set.
    await tx.db.execute(sql`
      insert into ad_entities (workspace_id, ad_account_id, level, external_id, name, status, effective_status,
        campaign_external_id, adset_external_id, daily_budget, learning_status)
      select ${workspace}::uuid, ${account}::uuid, 'campaign', 'c' || c, 'Campaign ' || c, s, s, 'c' || c, null,
        case when c <= 10 then 100000 + c * 1000 end, null
      from generate_series(1, 50) c, lateral (select case when c % 7 = 0 then 'PAUSED' else 'ACTIVE' end as s) x
      union all
      select ${workspace}::uuid, ${account}::uuid, 'adset', 's' || c || '_' || a, 'Broad 18-65+ ' || a, 'ACTIVE', 'ACTIVE', 'c' || c,
        's' || c || '_' || a, case when c > 10 then 20000 + a * 500 end, case a % 3 when 0 then 'LEARNING' else 'SUCCESS' end
      from generate_series(1, 50) c, generate_series(1, 10) a
      union all
      select ${workspace}::uuid, ${account}::uuid, 'ad', 'd' || c || '_' || a || '_' || d, 'Ad ' || d || ' of ' || c || '/' || a,
        case when d = 10 then 'PAUSED' else 'ACTIVE' end, case when d = 10 then 'PAUSED' else 'ACTIVE' end,
        'c' || c, 's' || c || '_' || a, null, null
      from generate_series(1, 50) c, generate_series(1, 10) a, generate_series(1, 10) d`);
    // Ad days, then the ad sets' and campaigns' as their sums (what the sync's roll-up writes).
    await tx.db.execute(sql`
      insert into insights_daily (workspace_id, ad_account_id, level, entity_external_id, date, spend, impressions,
        reach, clicks, link_clicks, conversions, conversion_value)
      select ${workspace}::uuid, ${account}::uuid, 'ad', e.external_id, ${first}::date + n,
        ((h + n * 13) % 400) / 4.0, 500 + (h + n) % 1500, 400 + (h + n) % 1000, (h + n) % 60, (h + n) % 40,
        case when (h + n) % 5 = 0 then 0 else (h + n) % 4 end, ((h + n) % 4) * 350.5
      from (select external_id, abs(hashtext(external_id)) % 10000 as h from ad_entities
            where ad_account_id = ${account}::uuid and level = 'ad') e
      cross join generate_series(0, ${DAYS - 1}) n`);
    for (const [level, column] of [
      ['adset', 'adset_external_id'],
      ['campaign', 'campaign_external_id'],
    ] as const)
      await tx.db.execute(sql`
        insert into insights_daily (workspace_id, ad_account_id, level, entity_external_id, date, spend, impressions,
          reach, clicks, link_clicks, conversions, conversion_value)
        select ${workspace}::uuid, ${account}::uuid, ${level}, e.${sql.raw(column)}, i.date, sum(i.spend), sum(i.impressions),
          sum(i.reach), sum(i.clicks), sum(i.link_clicks), sum(i.conversions), sum(i.conversion_value)
        from insights_daily i join ad_entities e on e.ad_account_id = i.ad_account_id and e.external_id = i.entity_external_id
        where i.level = 'ad' and i.ad_account_id = ${account}::uuid
        group by e.${sql.raw(column)}, i.date`);
    // One active rule over the ads, and 1,000 of its actions in the ledger (pauses), one a timed hold's resume.
    const rule = await one(sql`
      insert into automation_rules (workspace_id, name, is_active, definition) values (${workspace}::uuid, 'Stop loss', true,
        ${JSON.stringify({
          scope: { adAccountIds: [], level: 'ad' },
          conditions: { match: 'all', items: [{ metric: 'cpa', operator: 'gt', value: 200, window: 'last_7d' }] },
          actions: [{ type: 'pause' }],
          schedule: { everyMinutes: 60 },
          safeguards: {},
          mode: 'auto',
          approvalHours: 24,
        })}::jsonb) returning id`);
    const run = await one(
      sql`insert into rule_runs (workspace_id, rule_id, slot, trigger) values (${workspace}::uuid, ${rule}::uuid, 'bench', 'schedule') returning id`,
    );
    await tx.db.execute(sql`
      insert into rule_actions (workspace_id, rule_id, run_id, ad_account_id, slot, action_type, entity_level,
        entity_external_id, entity_name, target_level, target_external_id, target_name, field, currency,
        before_status, after_status, state, explanation, applied_at)
      select ${workspace}::uuid, ${rule}::uuid, ${run}::uuid, ${account}::uuid, 'slot-' || g, 'pause', 'ad', e.external_id, e.name, 'ad',
        e.external_id, e.name, 'status', 'THB', 'ACTIVE', 'PAUSED', 'applied', '{}'::jsonb, now() - g * interval '1 hour'
      from (select external_id, name, row_number() over (order by external_id) as g from ad_entities
            where ad_account_id = ${account}::uuid and level = 'ad') e
      where e.g <= 1000`);
    return { workspace, user };
  });
  // As autovacuum would leave them after a sync: statistics for the planner, the visibility map for index-only scans.
  await database.system('explorer bench vacuum', (tx) => tx.db.execute(sql`select 1`));
  // ANALYZE is the tables' owner's: the system role would skip them with a warning, leaving the planner guessing.
  for (const table of ['insights_daily', 'ad_entities', 'rule_actions', 'automation_rules'])
    await database.system('explorer bench analyze', async (tx) => {
      await tx.db.execute(sql`set local role none`);
      await tx.db.execute(sql.raw(`analyze ${table}`));
    });
  const seededMs = performance.now() - seedStarted;

  const mirror = new AdMirrorService(new AdMirrorRepository());
  const service = new EntitiesService({
    transactions: database,
    mirror,
    read: new EntityReadService(new EntityReadRepository()),
    knowledge: new EntityKnowledgeService(new RulesRepository()),
    history: new EntityHistoryService(),
    now: () => now,
  });
  const scope = { workspaceId: ids.workspace, userId: ids.user };
  const sorts = ['-spend', '-cpa', '-roas', 'name', '-budget', 'status'];
  const times: number[] = [];
  const perLevel: Record<string, number[]> = {};
  let rows = 0;
  // One warm-up call per level (the engine's plans and caches), then the measured rounds.
  for (const level of ENTITY_LEVELS)
    await service.list(scope, { level, window: 'last_30d', sort: '-spend', limit: 100 } as EntityListQuery);
  for (let round = 0; round < ROUNDS; round += 1)
    for (const level of ENTITY_LEVELS)
      for (const sort of sorts) {
        const started = performance.now();
        const page = await service.list(scope, { level, window: 'last_30d', sort, limit: 100 } as EntityListQuery);
        const ms = performance.now() - started;
        times.push(ms);
        (perLevel[level] ??= []).push(ms);
        if (level === 'ad') rows = page.total;
      }
  times.sort((a, b) => a - b);
  const levels = Object.entries(perLevel)
    .map(([level, list]) => {
      list.sort((a, b) => a - b);
      return `${level} p50 ${percentile(list, 0.5).toFixed(1)} ms, p99 ${percentile(list, 0.99).toFixed(1)} ms`;
    })
    .join('; ');
  console.log(
    `explorer: ${rows} ads × ${DAYS} days (${engine}, seeded in ${(seededMs / 1000).toFixed(1)} s); list of 100, last 30 days against the 30 before, ${sorts.length} sorts × 3 levels × ${ROUNDS} rounds: p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms (${levels}); target p99 < ${engine === 'Postgres' ? 150 : 400} ms; load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await database.close();
}
