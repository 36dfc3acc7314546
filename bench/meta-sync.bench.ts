// Graph API calls per account for one full sync of a seeded 500-ad account, and the time to sync 10 of them.
import { createTestDatabase } from '@adpilot/db/testing';
import { MetaClient } from '@adpilot/meta';
import { defaultSeed, startSandboxServer, type SandboxSeed } from '@adpilot/meta/sandbox';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/env.ts';
import { createContext } from '../apps/server/src/context.ts';
import { answerConsent } from '../apps/server/src/test/meta-sandbox.ts';

const ACCOUNTS = 10;
const CONCURRENCY = 2; // what one worker process runs at once

const base = defaultSeed();
const seed: SandboxSeed = {
  ...base,
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

const running = await startSandboxServer({ seed });
const database = await createTestDatabase();
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'http://localhost:3000',
  WEB_DIST_DIR: '/nonexistent',
});
const client = new MetaClient({
  graphBaseUrl: running.url,
  dialogBaseUrl: running.url,
  appId: running.sandbox.appId,
  appSecret: running.sandbox.appSecret,
});
const ctx = createContext({
  config,
  database,
  appSecret: 'bench-secret-that-is-long-enough-for-hkdf-0123456789',
  log: pino({ level: 'silent' }),
  meta: {
    client,
    sandbox: running.sandbox,
    adsManagerBase: running.url,
    isSandbox: () => true,
    verifyApp: () => client.appAccessToken().then(() => undefined),
  },
  scheduler: { enqueueSync: async () => true },
});
const app = await buildApp(ctx, { logger: false });

const registered = await app.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: { name: 'Bench', email: 'bench@example.com', password: 'Bench-passw0rd' },
});
const auth = { authorization: `Bearer ${registered.json().data.token}` };
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
const userId = registered.json().data.user.id as string;

// One full (first) sync of one account, counted by the sandbox.
const [first, ...rest] = connected;
if (!first) throw new Error('nothing connected');
running.sandbox.stats.reset();
const started = performance.now();
const result = await ctx.adAccountSync.sync(userId, first.id, { final: true });
const oneMs = performance.now() - started;
const fullCalls = running.sandbox.stats.snapshot().total;
const byKind = running.sandbox.stats.snapshot().byKind;

// The other nine, CONCURRENCY at a time as a worker runs them.
const queue = [...rest];
const allStarted = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      await ctx.adAccountSync.sync(userId, next.id, { final: true });
  }),
);
const tenSeconds = (oneMs + performance.now() - allStarted) / 1000;

// An incremental sync (last 3 days + today) of the first account.
running.sandbox.stats.reset();
await ctx.adAccountSync.sync(userId, first.id, { final: true });
const incrementalCalls = running.sandbox.stats.snapshot().total;

const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
console.log(
  `meta-sync: full sync of a 500-ad account = ${fullCalls} Graph calls (${Object.entries(byKind)
    .map(([k, v]) => `${k} ${v}`)
    .join(
      ', ',
    )}; ${result.entities} entities, ${result.insightRows} insight rows, ${(oneMs / 1000).toFixed(2)} s); incremental sync = ${incrementalCalls} calls; ${ACCOUNTS} such accounts synced in ${tenSeconds.toFixed(1)} s (concurrency ${CONCURRENCY}, PGlite); RSS ${rss} MB`,
);
await app.close();
await database.close();
await running.close();
