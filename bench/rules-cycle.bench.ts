// One full evaluation cycle of 100 rules over 10 accounts × 500 ads on the embedded default: wall time and the
// Graph calls the sandbox counts (refreshes per account, reads and writes, batched).
import { createTestDatabase } from '@adpilot/db/testing';
import { MetaClient } from '@adpilot/meta';
import { defaultSeed, startSandboxServer, type SandboxSeed } from '@adpilot/meta/sandbox';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/env.ts';
import { createContext, type AppContext } from '../apps/server/src/context.ts';
import { answerConsent } from '../apps/server/src/test/meta-sandbox.ts';
import { HeldScheduler } from '../apps/server/src/test/rules-sandbox.ts';

const ACCOUNTS = 10;
const RULES = 100;
const CONCURRENCY = 2; // what one worker process runs at once

const seed: SandboxSeed = {
  ...defaultSeed(),
  personas: [
    {
      name: 'Benchmark advertiser',
      accounts: Array.from({ length: ACCOUNTS }, (_, i) => ({
        name: `Bench account ${i + 1}`,
        currency: i % 2 ? 'USD' : 'THB',
        timezone: i % 2 ? 'America/New_York' : 'Asia/Bangkok',
        campaigns: 10,
        adSetsPerCampaign: 5,
        adsPerAdSet: 10,
        cboCampaigns: 0,
      })),
    },
  ],
};

const clock = { now: new Date() };
const running = await startSandboxServer({ seed, now: () => clock.now });
const database = await createTestDatabase();
const held = new HeldScheduler();
// The sync scheduler runs syncs in line through the context it belongs to.
const built: { ctx?: AppContext } = {};
const ctx = createContext({
  config: loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST_DIR: '/nonexistent',
  }),
  database,
  appSecret: 'bench-secret-that-is-long-enough-for-hkdf-0123456789',
  log: pino({ level: 'silent' }),
  now: () => clock.now,
  meta: {
    client: new MetaClient({
      graphBaseUrl: running.url,
      dialogBaseUrl: running.url,
      appId: running.sandbox.appId,
      appSecret: running.sandbox.appSecret,
    }),
    sandbox: running.sandbox,
    adsManagerBase: running.url,
    isSandbox: () => true,
    verifyApp: async () => undefined,
  },
  scheduler: {
    enqueueSync: async (userId, adAccountId) => {
      await built.ctx?.adAccountSync.sync(userId, adAccountId, { final: true });
      return true;
    },
  },
  rules: { scheduler: held },
});
built.ctx = ctx;
const app = await buildApp(ctx, { logger: false });

const registered = (
  await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: 'Bench', email: 'bench@example.com', password: 'Bench-passw0rd' },
  })
).json().data;
const auth = { authorization: `Bearer ${registered.token}` };
const { authUrl } = (
  await app.inject({ method: 'GET', url: '/api/ad-accounts/facebook/auth-url', headers: auth })
).json().data;
const back = await answerConsent(authUrl);
const connected = (
  await app.inject({
    method: 'POST',
    url: '/api/ad-accounts/facebook/callback',
    headers: auth,
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  })
).json().data.connectedAccounts as { id: string; facebook_account_id: string }[];

// Ten rules per account, the templates' kinds with thresholds that fire on part of the account.
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
for (let i = 0; i < RULES; i++) {
  const account = connected[i % connected.length];
  const kind = kinds[i % kinds.length];
  if (!account || !kind) throw new Error('setup');
  const created = await app.inject({
    method: 'POST',
    url: '/api/rules',
    headers: auth,
    payload: {
      name: `Bench rule ${i + 1}`,
      isActive: true,
      scope: { adAccountIds: [account.id], level: kind.level, statuses: ['ACTIVE'] },
      conditions: {
        match: 'all',
        items: [{ metric: kind.metric, operator: kind.operator, value: kind.value, window: 'last_7d' }],
      },
      actions: [kind.action],
      schedule: { everyMinutes: 15 },
      safeguards: { cooldownHours: 24, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
    },
  });
  if (created.statusCode !== 201) throw new Error(created.body);
}

// The next slot, with every mirror older than the rules' 15 minutes: each account needs one refresh.
clock.now = new Date(clock.now.getTime() + 16 * 60_000);
running.sandbox.stats.reset();
const mutationsBefore = running.sandbox.mutations.length;
const started = performance.now();
const due = await ctx.ruleTick.due(clock.now);
const queue = [...due];
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await ctx.ruleRunner.run(next);
  }),
);
const seconds = (performance.now() - started) / 1000;

const stats = running.sandbox.stats.snapshot();
// Every refresh (a sync) reads the account once: account reads are refreshes.
const refreshes = stats.byKind.account ?? 0;
const writes = running.sandbox.mutations.length - mutationsBefore;
const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
console.log(
  `rules-cycle: ${due.length} rules over ${ACCOUNTS} accounts × 500 ads in ${seconds.toFixed(1)} s (concurrency ${CONCURRENCY}, PGlite); ` +
    `${stats.total} Graph requests (${Object.entries(stats.byKind)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ')}; ${stats.batchItems} batch items); refreshes ${refreshes} for ${ACCOUNTS} accounts; ` +
    `${writes} writes applied; RSS ${rss} MB`,
);
await app.close();
await database.close();
await running.close();
