// The setup the Meta benchmarks share: a sandbox seeded with 10 accounts × 500 ads (or as many as asked), the app on
// a fresh database (PGlite, or Postgres when TEST_DATABASE_URL names a server), one advertiser registered on a plan
// with room for them all, and every sandbox account connected through the real consent flow.
import type { DatabaseHandle } from '@adpilot/db';
import { createTestDatabase } from '@adpilot/db/testing';
import { MetaClient } from '@adpilot/meta';
import { startSandboxServer, type Sandbox, type SandboxOptions } from '@adpilot/meta-sandbox';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { createContext, type AppContext, type ContextOptions } from '../apps/server/src/context.ts';
import type { SyncScheduler } from '../apps/server/src/modules/ad-accounts/ad-accounts.service.ts';
import { connectSandboxAccounts } from '../apps/server/src/test/connect-account.ts';
import { testConfig } from '../apps/server/src/test/test-app.ts';
import { BENCH_ACCOUNTS, seedOf } from './bench-seed.ts';

export { BENCH_ACCOUNTS };

export interface BenchAppOptions {
  /** The clock of both the sandbox and the app (the real one by default). */
  now?: () => Date;
  /** What a queued sync does, given the app's context: nothing by default (the benchmark syncs itself). */
  scheduler?: (context: () => AppContext | undefined) => SyncScheduler;
  rules?: ContextOptions['rules'];
  /** How many sandbox accounts to seed and connect (`BENCH_ACCOUNTS` by default). */
  accounts?: number;
  /** The sandbox's quotas (development access and 5,000 app calls an hour by default). */
  quotas?: Pick<SandboxOptions, 'accessTier' | 'appCallsPerHour'>;
  /** More configuration of the app (environment variables' values). */
  env?: Record<string, string>;
}

/** The Graph API the app calls: a sandbox in this process, or one in a process of its own. */
export interface GraphTarget {
  url: string;
  appId: string;
  appSecret: string;
}

/** The application secret of the bench's app; worker processes started on its database are given it too. */
export const BENCH_APP_SECRET = 'bench-secret-that-is-long-enough-for-hkdf-0123456789';

/**
 * The app on the seeded sandbox with the advertiser's accounts connected. The Meta client is the real one, waits
 * included (the async insights reports poll), so the figures are what a worker would see.
 */
export async function startBenchApp(options: BenchAppOptions = {}) {
  const running = await startSandboxServer({
    seed: seedOf(options.accounts ?? BENCH_ACCOUNTS),
    ...options.quotas,
    ...(options.now ? { now: options.now } : {}),
  });
  const { sandbox } = running;
  const started = await startBenchAppOn(
    { url: running.url, appId: sandbox.appId, appSecret: sandbox.appSecret },
    {
      ...options,
      sandbox,
    },
  );
  return {
    ...started,
    running,
    async close() {
      await started.close();
      await running.close();
    },
  };
}

/**
 * The bench's app context on `database`, calling `graph` as its Meta with the real client: what the bench's app is
 * built on, and what a setup process of the rule-cycle bench syncs with (`bench/rules-cycle-first-syncs.ts`).
 */
export function benchContext(
  graph: GraphTarget,
  database: DatabaseHandle,
  options: Pick<BenchAppOptions, 'now' | 'scheduler' | 'rules' | 'env'> & { sandbox?: Sandbox } = {},
): AppContext {
  const client = new MetaClient({
    graphBaseUrl: graph.url,
    dialogBaseUrl: graph.url,
    appId: graph.appId,
    appSecret: graph.appSecret,
  });
  const built: { ctx?: AppContext } = {};
  const ctx = createContext({
    // The setup makes more requests a minute than a person would (a thousand rules): the flood limiter is off.
    config: testConfig({ RATE_LIMIT_MAX: '0', ...options.env }),
    database,
    appSecret: BENCH_APP_SECRET,
    log: pino({ level: 'silent' }),
    ...(options.now ? { now: options.now } : {}),
    meta: {
      client: () => client,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      adsManagerUrl: (act) =>
        options.sandbox?.adsManager.link(`${graph.url}/adsmanager`, act) ?? `${graph.url}/adsmanager?act=${act}`,
      isSandbox: () => true,
      verifyApp: () => client.appAccessToken().then(() => undefined),
    },
    scheduler: options.scheduler?.(() => built.ctx) ?? { enqueueSync: async () => true },
    ...(options.rules ? { rules: options.rules } : {}),
  });
  built.ctx = ctx;
  return ctx;
}

/**
 * The same on a sandbox served elsewhere (its own process, seeded with `options.accounts`): `close` leaves the
 * database open when `keepDatabase` is set, for processes started on it afterwards.
 */
export async function startBenchAppOn(
  graph: GraphTarget,
  options: BenchAppOptions & { sandbox?: Sandbox; keepDatabase?: boolean } = {},
) {
  const accounts = options.accounts ?? BENCH_ACCOUNTS;
  const database = await createTestDatabase();
  const ctx = benchContext(graph, database, options);
  const app = await buildApp(ctx, { logger: false });

  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: 'Bench', email: 'bench@example.com', password: 'Bench-passw0rd' },
  });
  const { token, user } = registered.json().data as { token: string; user: { id: string } };
  const auth = { authorization: `Bearer ${token}` };
  // A new user is on the free plan (one ad account, ADR 0040): the connection would keep one account and leave nine
  // out, and every figure "for 10 accounts" would be for one. The advertiser takes the unlimited plan first.
  const upgraded = await app.inject({
    method: 'POST',
    url: '/api/subscription/upgrade',
    headers: auth,
    payload: { planId: 'enterprise' },
  });
  if (upgraded.statusCode !== 200) throw new Error(`plan change failed: ${upgraded.body}`);
  const connected = await connectSandboxAccounts(app, auth);
  if (connected.length !== accounts) {
    throw new Error(`${connected.length} of the sandbox's ${accounts} accounts connected`);
  }
  return {
    database,
    ctx,
    app,
    auth,
    userId: user.id,
    /** The user's personal workspace: the scope of the bench's work. */
    workspaceId: await personalWorkspace(app, auth),
    /** The connected accounts' ids, in the sandbox's order. */
    connected,
    /**
     * The advertiser signed in again: a setup of many accounts outlasts an access token's lifetime, so what follows
     * the first syncs asks for fresh headers.
     */
    async signIn(): Promise<Record<string, string>> {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'bench@example.com', password: 'Bench-passw0rd' },
      });
      if (login.statusCode !== 200) throw new Error(`sign-in failed: ${login.body}`);
      return { authorization: `Bearer ${(login.json().data as { token: string }).token}` };
    },
    async close() {
      await app.close();
      if (!options.keepDatabase) await database.close();
    },
  };
}

async function personalWorkspace(
  app: { inject: FastifyInstance['inject'] },
  auth: Record<string, string>,
): Promise<string> {
  const listed = await app.inject({ method: 'GET', url: '/api/workspaces', headers: auth });
  const personal = (listed.json() as { data: { id: string; personal: boolean }[] }).data.find((w) => w.personal);
  if (!personal) throw new Error(`no personal workspace: ${listed.body}`);
  return personal.id;
}
