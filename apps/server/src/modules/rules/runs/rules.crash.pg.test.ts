import { createDatabase, migrateDatabase, ruleActions, ruleRuns, type DatabaseHandle } from '@adpilot/db';
import { createTestDatabase, pgliteSnapshot } from '@adpilot/db/testing';
import type { RunningSandbox } from '@adpilot/meta-sandbox';
import { eq } from 'drizzle-orm';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app.ts';
import { createContext, type AppContext, type ContextOptions } from '../../../context.ts';
import { startTestSandbox } from '../../../test/meta-sandbox.ts';
import { buildRule } from '../../../test/rule-factories.ts';
import { CRASH_TIMING, type CrashWorkerArgs } from '../../../test/rule-worker.shared.ts';
import { connectedUser, mirrorEntities, writesTo } from '../../../test/rules-sandbox.ts';
import { syncInLine, TEST_SECRET, testConfig, type TestApp } from '../../../test/test-app.ts';

const CHILD = fileURLToPath(new URL('../../../test/rule-worker.child.ts', import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * On Postgres (TEST_DATABASE_URL) both processes share the server; on PGlite they take turns on one data folder,
 * which the first opening fills from the migrated snapshot every test file starts from (ADR 0068).
 */
async function openDatabase(dataDir: string | undefined, fresh = false): Promise<DatabaseHandle> {
  if (!dataDir) return createTestDatabase();
  const loadDataDir = fresh ? new Blob([readFileSync(await pgliteSnapshot())]) : undefined;
  const handle = createDatabase({ dataDir, ...(loadDataDir ? { loadDataDir } : {}) });
  await migrateDatabase(handle);
  return handle;
}

async function startApp(database: DatabaseHandle, provider: ContextOptions['meta'], work: boolean) {
  const clock = { now: new Date(), advance: () => undefined };
  const built: { ctx?: AppContext } = {};
  const ctx = createContext({
    config: testConfig(),
    database,
    appSecret: TEST_SECRET,
    log: pino({ level: 'silent' }),
    ...(provider ? { meta: provider } : {}),
    scheduler: syncInLine(() => built.ctx),
    jobQueue: CRASH_TIMING.queue,
    rules: CRASH_TIMING.rules,
  });
  built.ctx = ctx;
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  await ctx.jobs.start({ work });
  const harness: TestApp = {
    app,
    ctx,
    modules: ctx.modules,
    database,
    secretBox: undefined as never,
    mailOutbox: undefined as never,
    mailer: undefined as never,
    clock: {
      get now() {
        return new Date();
      },
      advance: clock.advance,
    },
    inspect: (work) => database.system('test inspection', (tx) => work(tx.db)),
    close: async () => {
      await ctx.jobs.stop();
      await app.close();
    },
  };
  return harness;
}

function runChild(args: CrashWorkerArgs): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(args)], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

describe('a worker killed between the Meta write and the ledger', () => {
  it('applies the change once: the redelivered job finds it on Meta and records it without writing again', async () => {
    // One small account: the embedded database on disk is slow, and one ad set with a few ads proves the point.
    const started = await startTestSandbox({
      seed: {
        personas: [
          {
            name: 'Crash test owner',
            accounts: [
              {
                name: 'Crash test store',
                currency: 'THB',
                timezone: 'Asia/Bangkok',
                campaigns: 1,
                adSetsPerCampaign: 1,
                adsPerAdSet: 3,
                cboCampaigns: 0,
              },
            ],
          },
        ],
      },
    });
    const sandbox: RunningSandbox = started.running;
    cleanups.push(() => sandbox.close());
    const dataDir = process.env.TEST_DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'adpilot-crash-'));
    if (dataDir) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

    // First process: sign up, connect, create a stop-loss on one ad, and queue "Run now" without working it.
    let database = await openDatabase(dataDir, true);
    const first = await startApp(database, started.provider, false);
    const { session, accounts } = await connectedUser(first);
    const account = accounts.find((row) => row.currency === 'THB');
    if (!account) throw new Error('no THB account');
    // An active ad whose name no other ad's contains: the rule's name filter selects it alone.
    const ads = await mirrorEntities(first, account, 'ad');
    const ad = ads.find(
      (candidate) =>
        candidate.status === 'ACTIVE' &&
        ads.every((other) => other === candidate || !other.name.includes(candidate.name)),
    );
    if (!ad) throw new Error('no ad to pause');
    const created = await first.app.inject({
      method: 'POST',
      url: '/api/rules',
      headers: session.auth,
      payload: buildRule({
        scope: { adAccountIds: [account.id], level: 'ad', nameContains: ad.name, statuses: ['ACTIVE'] },
        conditions: { match: 'all', items: [{ metric: 'spend', operator: 'gte', value: 0, window: 'last_7d' }] },
      }),
    });
    const ruleId = created.json().data.id as string;
    const queued = await first.app.inject({ method: 'POST', url: `/api/rules/${ruleId}/run`, headers: session.auth });
    expect(queued.statusCode).toBe(202);
    const runId = queued.json().data.runId as string;
    await first.close();
    if (dataDir) await database.close();

    // The worker process: plans, writes the pause to Meta, and dies before recording it.
    const exit = await runChild({
      ...(dataDir ? { dataDir } : { databaseUrl: database.url }),
      sandboxUrl: sandbox.url,
      appId: sandbox.sandbox.appId,
      appSecret: sandbox.sandbox.appSecret,
      secret: TEST_SECRET,
    });
    expect(exit.signal).toBe('SIGKILL');
    const targets = new Set(sandbox.sandbox.mutations.map((mutation) => mutation.objectId));
    expect(targets.size).toBe(1);
    const [target] = [...targets];
    expect(writesTo(sandbox, target ?? '')).toEqual([expect.objectContaining({ status: 'PAUSED' })]);

    // A second worker: pg-boss redelivers the expired job, the ledger row is taken again and reconciled.
    if (dataDir) database = await openDatabase(dataDir);
    if (dataDir) cleanups.push(() => database.close());
    const second = await startApp(database, started.provider, true);
    cleanups.push(() => second.close());
    const run = await waitFor(async () => {
      const [row] = await second.inspect((db) => db.select().from(ruleRuns).where(eq(ruleRuns.id, runId)));
      return row?.status === 'completed' ? row : undefined;
    });
    expect(run.status).toBe('completed');
    const ledger = await second.inspect((db) => db.select().from(ruleActions).where(eq(ruleActions.runId, runId)));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ state: 'applied', targetExternalId: target });
    expect(ledger[0]?.attempts).toBeGreaterThanOrEqual(2);
    // Still exactly one write on Meta: the redelivered job saw the pause there and did not send it again.
    expect(writesTo(sandbox, target ?? '')).toHaveLength(1);
    expect(sandbox.sandbox.stats.snapshot().byKind.update).toBe(1);
  }, 300_000);
});
