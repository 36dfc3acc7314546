// What both variants of the rule-cycle bench share: its size, and the rules it writes through the API.
import type { Transactions } from '@adpilot/db';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../apps/server/src/context.ts';
import { workspaceJob } from '../apps/server/src/lib/scope.ts';

const positive = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
};
export const ACCOUNTS = positive('RULES_CYCLE_ACCOUNTS', 10);
export const RULES = positive('RULES_CYCLE_RULES', 100);
export const WORKERS = positive('RULES_CYCLE_WORKERS', 1);
/** Ads per account: 10 campaigns × 5 ad sets × ADS / 50 ads. */
export const ADS = positive('RULES_CYCLE_ADS', 500);
/** What one worker process runs at once (the `rule-run` job's concurrency, `RULE_RUN_CONCURRENCY`). */
export const PER_WORKER = positive('RULES_CYCLE_PER_WORKER', 2);

/**
 * Meta's answer times during the slot (`RULES_CYCLE_LATENCY=p50,p99` in ms, e.g. `200,1000`): the sandbox holds every
 * answer for a draw of the log-normal fitted to both. The setup runs without it.
 */
export const LATENCY = ((): { p50Ms: number; p99Ms: number } | undefined => {
  const raw = process.env.RULES_CYCLE_LATENCY;
  if (!raw) return undefined;
  const [p50Ms, p99Ms] = raw.split(',').map(Number);
  if (p50Ms === undefined || p99Ms === undefined || !(p50Ms >= 0) || !(p99Ms >= p50Ms))
    throw new Error('RULES_CYCLE_LATENCY is p50,p99 in milliseconds, p99 at least p50');
  return { p50Ms, p99Ms };
})();
/**
 * Days of history in the sandbox's world (`RULES_CYCLE_HISTORY_DAYS`; the sandbox's 60 by default), which the first
 * syncs read in full. The slot's refresh reads the last 14 days and today whatever the history, and the rules look at
 * the last 7 days: a shorter history makes the setup cheaper, not the slot.
 */
export const HISTORY_DAYS = process.env.RULES_CYCLE_HISTORY_DAYS ? positive('RULES_CYCLE_HISTORY_DAYS', 60) : undefined;
/** First syncs a setup process runs at once (`RULES_CYCLE_SETUP_CONCURRENCY`, 4 by default). */
export const SETUP_CONCURRENCY = positive('RULES_CYCLE_SETUP_CONCURRENCY', 4);
/**
 * The processes the setup of the bench on worker processes first-syncs the accounts in (`RULES_CYCLE_SETUP_PROCESSES`,
 * 3 by default): one process's core bounds it (about 0.25 s of CPU a 100-ad account, the sandbox half as much).
 */
export const SETUP_PROCESSES = positive('RULES_CYCLE_SETUP_PROCESSES', 3);
export const engine = process.env.TEST_DATABASE_URL ? 'Postgres' : 'PGlite';

/** The first sync of every connected account, SETUP_CONCURRENCY at once; a sync that does not finish fails the bench. */
export async function firstSyncs(ctx: AppContext, workspaceId: string, accounts: readonly string[]): Promise<void> {
  const toSync = [...accounts];
  await Promise.all(
    Array.from({ length: SETUP_CONCURRENCY }, async () => {
      for (let next = toSync.shift(); next; next = toSync.shift()) {
        const outcome = await ctx.modules.adAccounts.sync.sync(workspaceJob(workspaceId), next, { final: true });
        if (outcome.status !== 'synced') throw new Error(`first sync of ${next}: ${outcome.status}`);
      }
    }),
  );
}

// Ten rules per account (more when RULES_CYCLE_RULES asks), the templates' kinds with thresholds that fire on part of
// the account.
const kinds = [
  { level: 'ad', metric: 'cpa', operator: 'gt', value: 400, action: { type: 'pause' } },
  { level: 'ad', metric: 'ctr', operator: 'lt', value: 0.8, action: { type: 'pause' } },
  { level: 'ad', metric: 'frequency', operator: 'gt', value: 3, action: { type: 'notify' } },
  {
    level: 'adset',
    metric: 'roas',
    operator: 'gt',
    value: 3,
    action: { type: 'increase_budget', by: 15, unit: 'percent', ceiling: 100_000 },
  },
  {
    level: 'adset',
    metric: 'cpc',
    operator: 'gt',
    value: 30,
    action: { type: 'decrease_budget', by: 10, unit: 'percent', floor: 10 },
  },
] as const;

/** The API's unit of a bench rule: rule `i` of the setup, for `account`. */
const ruleBody = (i: number, account: string) => {
  const kind = kinds[i % kinds.length];
  if (!kind) throw new Error('setup');
  return {
    name: `Bench rule ${i + 1}`,
    isActive: true,
    scope: { adAccountIds: [account], level: kind.level, statuses: ['ACTIVE'] },
    conditions: {
      match: 'all',
      items: [{ metric: kind.metric, operator: kind.operator, value: kind.value, window: 'last_7d' }],
    },
    actions: [kind.action],
    schedule: { everyMinutes: 15 },
    safeguards: { cooldownHours: 24, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
  };
};

/**
 * `RULES` active rules, every 15 minutes, spread over the connected accounts in turn (rule `i` on account `i mod n`,
 * of kind `i mod 5`). The first of each kind (and any rule up to `throughApi`, 50 by default) is written through the
 * API, validated and stored as a person's would be; the rest are copies of the API's row of their kind with their
 * own name and account, written in one statement: the API's create reads every rule of the workspace for its
 * warnings, so 10,000 rules one by one cost minutes of setup that the slot does not depend on.
 */
export async function createRules(
  app: { inject: FastifyInstance['inject'] },
  auth: Record<string, string>,
  connected: string[],
  database: { transactions: Transactions; workspaceId: string },
  throughApi = 50,
): Promise<void> {
  const viaApi = Math.min(RULES, Math.max(throughApi, kinds.length));
  for (let i = 0; i < viaApi; i++) {
    const account = connected[i % connected.length];
    if (!account) throw new Error('setup');
    const created = await app.inject({
      method: 'POST',
      url: '/api/rules',
      headers: auth,
      payload: ruleBody(i, account),
    });
    if (created.statusCode !== 201) throw new Error(created.body);
  }
  const copies: { name: string; account: string; template: string }[] = [];
  for (let i = viaApi; i < RULES; i++) {
    const account = connected[i % connected.length];
    if (!account) throw new Error('setup');
    copies.push({ name: `Bench rule ${i + 1}`, account, template: `Bench rule ${(i % kinds.length) + 1}` });
  }
  if (copies.length === 0) return;
  await database.transactions.tenant(workspaceJob(database.workspaceId), async (tx) => {
    await tx.db.execute(sql`
      insert into automation_rules (workspace_id, name, description, is_active, definition)
      select t.workspace_id, c.name, t.description, t.is_active,
             jsonb_set(t.definition, '{scope,adAccountIds}', jsonb_build_array(c.account))
        from jsonb_to_recordset(${JSON.stringify(copies)}::jsonb) as c(name text, account text, template text)
        join automation_rules t on t.name = c.template`);
  });
}
