// The impact of one rule on Postgres (BENCH_DATABASE_URL, default the local server): 1,000 applied actions
// (budget changes on 500 ad sets, pauses of 500 ads) over 90 days, with 104 days of daily insights for those
// entities and as many others of the account; times the rule's impact over the 90 days (the ledger read, the
// insights read and the arithmetic, in one unit of work, as GET /api/rules/:id/impact runs it). Prints one line.
import { randomBytes } from 'node:crypto';
import { addDays, localDate } from '@adpilot/contracts';
import { openDatabase } from '@adpilot/db';
import pg from 'pg';
import { AdMirrorRepository } from '../apps/server/src/modules/ad-accounts/ad-mirror.repository.ts';
import { AdMirrorService } from '../apps/server/src/modules/ad-accounts/ad-mirror.service.ts';
import { RulesRepository } from '../apps/server/src/modules/rules/definitions/rules.repository.ts';
import { RuleImpactService } from '../apps/server/src/modules/rules/runs/rule-impact.service.ts';
import { RuleLedgerRepository } from '../apps/server/src/modules/rules/ledger/rule-ledger.repository.ts';

const ACTIONS = 1_000;
const RANGE_DAYS = 90;
const HISTORY_DAYS = RANGE_DAYS + 14;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const ZONE = 'Asia/Bangkok';

const server = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `adpilot_bench_${randomBytes(5).toString('hex')}`;
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`create database ${name}`);
await admin.end();
const target = new URL(server);
target.pathname = `/${name}`;
const url = target.toString();

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

try {
  const handle = await openDatabase({ url, poolSize: 2 });
  const owner = new pg.Client({ connectionString: url });
  await owner.connect();
  const now = new Date();
  const today = localDate(ZONE, now.getTime());
  const from = addDays(today, -RANGE_DAYS);

  const seedStarted = performance.now();
  const one = async (text: string, values: unknown[] = []) =>
    (await owner.query(text, values)).rows[0] as { id: string };
  const user = await one(`insert into users (email, name, password_hash) values ($1, 'Bench', 'x') returning id`, [
    `${name}@example.com`,
  ]);
  const workspace = await one(`insert into workspaces (name) values ('Bench') returning id`);
  await owner.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
    workspace.id,
    user.id,
  ]);
  const account = await one(
    `insert into ad_accounts (workspace_id, facebook_account_id, facebook_account_name, meta_account_status, currency,
       timezone, access_token_enc) values ($1, 'act_1', 'Bench account', 1, 'THB', $2, 'x') returning id`,
    [workspace.id, ZONE],
  );
  const rule = await one(
    `insert into automation_rules (workspace_id, name, definition) values ($1, 'Bench rule', '{}') returning id`,
    [workspace.id],
  );
  const run = await one(
    `insert into rule_runs (workspace_id, rule_id, slot, trigger) values ($1, $2, 'bench', 'schedule') returning id`,
    [workspace.id, rule.id],
  );
  // Insights: 500 ad sets and 1,000 ads that the rule touches (500 paused), and as many of each it never touched.
  await owner.query(
    `insert into insights_daily (workspace_id, ad_account_id, level, entity_external_id, date, spend, impressions,
       conversions, conversion_value)
     select $1, $2, e.level, e.id, $3::date + d, 100 + (g * 7 + d * 13) % 400, 1000, (g + d) % 9, ((g + d) % 9) * 350
     from (select 'adset' as level, 'as_' || g as id, g from generate_series(1, 1000) g
           union all select 'ad', 'ad_' || g, g from generate_series(1, 2000) g) e
     cross join generate_series(0, ${HISTORY_DAYS}) d`,
    [workspace.id, account.id, addDays(from, -14)],
  );
  // 1,000 actions, about 11 a day over the 90 days: budget raises and trims of 500 ad sets, pauses of 500 ads.
  await owner.query(
    `insert into rule_actions (workspace_id, rule_id, run_id, ad_account_id, slot, action_type, entity_level,
       entity_external_id, entity_name, target_level, target_external_id, target_name, field, currency, before_minor,
       after_minor, before_status, after_status, state, explanation, applied_at, reverted_at)
     select $1, $2, $3, $4, 'slot-' || g, a.type, a.level, a.id, a.id, a.level, a.id, a.id, a.field, 'THB',
       a.before_minor, a.after_minor, a.before_status, a.after_status, 'applied', '{}',
       $5::timestamptz - make_interval(mins => (g * ${(RANGE_DAYS * 24 * 60) / ACTIONS})::int), 
       case when g % 10 = 0 then $5::timestamptz - make_interval(mins => (g * ${(RANGE_DAYS * 24 * 60) / ACTIONS})::int - 3 * 1440) end
     from generate_series(1, ${ACTIONS}) g
     cross join lateral (select
       case when g % 2 = 0 then 'pause' when g % 4 = 1 then 'increase_budget' else 'decrease_budget' end as type,
       case when g % 2 = 0 then 'ad' else 'adset' end as level,
       case when g % 2 = 0 then 'ad_' || (g / 2) else 'as_' || ((g + 1) / 2) end as id,
       case when g % 2 = 0 then 'status' else 'daily_budget' end as field,
       case when g % 2 = 0 then null else 50000 end as before_minor,
       case when g % 2 = 0 then null when g % 4 = 1 then 60000 else 45000 end as after_minor,
       case when g % 2 = 0 then 'ACTIVE' end as before_status,
       case when g % 2 = 0 then 'PAUSED' end as after_status) a`,
    [workspace.id, rule.id, run.id, account.id, now.toISOString()],
  );
  await owner.query('analyze');
  const [{ rows: insightRows }] = [
    await owner.query('select count(*)::int as rows from insights_daily'),
  ] as unknown as [{ rows: { rows: number }[] }];
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  await owner.end();

  const service = new RuleImpactService({
    transactions: handle,
    rulesRepository: new RulesRepository(),
    ledger: new RuleLedgerRepository(),
    inputs: new AdMirrorService(new AdMirrorRepository()),
    now: () => now,
  });
  const scope = { workspaceId: workspace.id, userId: user.id };
  const query = { from, to: today };
  const first = await service.impact(scope, rule.id, query);
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await service.impact(scope, rule.id, query);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  await handle.close();
  const settled = first.actions.filter((action) => action.windows[2]!.after !== null).length;
  console.log(
    `rule-impact: ${ACTIONS.toLocaleString('en-US')} actions of one rule over ${RANGE_DAYS} days, ` +
      `${insightRows[0]!.rows.toLocaleString('en-US')} insight rows on Postgres (seeded in ${seedSeconds.toFixed(1)} s); ` +
      `impact p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms, ` +
      `max ${times.at(-1)!.toFixed(1)} ms (${ROUNDS} rounds, one unit of work each; target < 300 ms); ` +
      `${settled} with a settled 14-day after, ${first.daily.length} days on the chart`,
  );
} catch (error) {
  console.error('rule-impact bench failed:', error);
  process.exitCode = 1;
} finally {
  const cleanup = new pg.Client({ connectionString: server });
  await cleanup.connect();
  await cleanup.query(`drop database if exists ${name} with (force)`);
  await cleanup.end();
}
