import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workspaceJob } from '../lib/scope.ts';
import { createTestDatabase } from '@adpilot/db/testing';
import type { PlanId } from '@adpilot/contracts';
import type { DatabaseHandle, Transaction } from '@adpilot/db';
import type { RunningSandbox } from '@adpilot/meta-sandbox';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config/env.ts';
import { createContext, type AppContext, type AppModules, type ContextOptions } from '../context.ts';
import { deriveKey, SecretBox } from '../lib/crypto.ts';
import type { SyncScheduler } from '../modules/ad-accounts/ad-accounts.service.ts';
import { MailOutbox } from '../providers/mail/mail-outbox.ts';
import { MailOutboxRepository } from '../providers/mail/mail-outbox.repository.ts';
import type { Mail, Mailer } from '../providers/mail/mailer.ts';
import { startTestSandbox, type TestSandboxOptions } from './meta-sandbox.ts';

/** A mailer that keeps what it was asked to send, for tests to read links from. */
export class CapturingMailer implements Mailer {
  readonly kind = 'outbox';
  readonly sent: Mail[] = [];
  async send(mail: Mail): Promise<void> {
    this.sent.push(mail);
  }
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every module's services, internals included (the rules' runner and tick, the notifier's dispatcher…). */
  modules: AppModules;
  database: DatabaseHandle;
  /** The app's sealing of secrets at rest (same key), for tests that read a sealed column. */
  secretBox: SecretBox;
  /** The outbox mail the app keeps when no SMTP server is configured, for tests that seed or read it. */
  mailOutbox: MailOutbox;
  mailer: CapturingMailer;
  clock: { now: Date; advance(ms: number): void };
  /** Reads or writes behind the API's back, across tenants: the tests' own use of the system path. */
  inspect<T>(work: (db: Transaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hkdf-0123456789';

/** The configuration an app under test runs with: silent, no web bundle; `env` adds or overrides variables. */
export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST_DIR: '/nonexistent',
    // The suites sign up hundreds of users from one address; the limit's own test turns it on.
    REGISTRATION_LIMIT_PER_HOUR: '0',
    // What an app keeps on disk (the sandbox's saved changes) goes to a folder of its own, never ./data: no test
    // reads another's state, nor the developer's.
    DATA_DIR: env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'adpilot-test-data-')),
    ...env,
  });
}

/**
 * A sync scheduler that runs each sync (and the history backfill it leaves) in line, through the context it is
 * handed to, instead of queueing a job: the request that asked for a sync answers after it, so a test (or a
 * benchmark) sees its result at once. The context is looked up when a sync is asked for, since it does not exist yet
 * when the scheduler is built.
 */
export function syncInLine(context: () => AppContext | undefined): SyncScheduler {
  return {
    enqueueSync: async (workspaceId, adAccountId) => {
      const ctx = context();
      if (!ctx) throw new Error('a sync was asked for before the app was built');
      const result = await ctx.modules.adAccounts.sync.sync(workspaceJob(workspaceId), adAccountId, { final: true });
      if (result.backfillDue) await ctx.modules.adAccounts.backfill.backfill(workspaceJob(workspaceId), adAccountId);
      return true;
    },
    enqueueBackfill: async (workspaceId, adAccountId) => {
      const ctx = context();
      if (!ctx) throw new Error('a backfill was asked for before the app was built');
      await ctx.modules.adAccounts.backfill.backfill(workspaceJob(workspaceId), adAccountId);
      return true;
    },
  };
}

type TestServices = Pick<
  ContextOptions,
  | 'meta'
  | 'scheduler'
  | 'rules'
  | 'jobQueue'
  | 'webhookRetry'
  | 'mailer'
  | 'ai'
  | 'billing'
  | 'reports'
  | 'metrics'
  | 'mailLimits'
  | 'invitationMailRetrySeconds'
>;

/** A fresh app on its own fresh database (PGlite, or Postgres with TEST_DATABASE_URL), with a movable clock. */
export async function createTestApp(env: Record<string, string> = {}, services: TestServices = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = testConfig(env);
  const clock = {
    now: new Date(),
    advance(ms: number) {
      this.now = new Date(this.now.getTime() + ms);
    },
  };
  const mailer = new CapturingMailer();
  const ctx = createContext({
    config,
    database,
    appSecret: TEST_SECRET,
    log: pino({ level: 'silent' }),
    now: () => clock.now,
    ...services,
    mailer: services.mailer ?? mailer,
  });
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  const secretBox = new SecretBox(deriveKey(TEST_SECRET, 'encryption'));
  return {
    app,
    ctx,
    modules: ctx.modules,
    database,
    secretBox,
    mailOutbox: new MailOutbox(new MailOutboxRepository(database), secretBox),
    mailer,
    clock,
    inspect: (work) => database.system('test inspection', (tx) => work(tx.db)),
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export interface SandboxTestApp extends TestApp {
  sandbox: RunningSandbox;
}

/**
 * A fresh app connected to its own Meta sandbox, whose syncs run in line (the queue itself is tested in
 * sync.jobs.test.ts), so each test sees a connect's or a "Sync now"'s result; `close` closes the app and the sandbox.
 */
export async function createSandboxTestApp(
  env: Record<string, string> = {},
  services: Omit<TestServices, 'meta' | 'scheduler'> = {},
  sandboxOptions: TestSandboxOptions = {},
): Promise<SandboxTestApp> {
  const started = await startTestSandbox(sandboxOptions, services.metrics?.meta);
  let app: TestApp | undefined;
  try {
    app = await createTestApp(env, {
      ...services,
      meta: started.provider,
      scheduler: syncInLine(() => app?.ctx),
    });
  } catch (error) {
    await started.running.close();
    throw error;
  }
  const closeApp = app.close;
  return {
    ...app,
    sandbox: started.running,
    async close() {
      await closeApp();
      await started.running.close();
    },
  };
}

let counter = 0;
/** A valid, unique registration payload. */
/** Listens on a free port of 127.0.0.1, for suites that need a real socket (streams, compression); its origin. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

export function buildUser(overrides: Partial<{ name: string; email: string; password: string }> = {}) {
  counter += 1;
  return {
    name: `Test User ${counter}`,
    email: `user${counter}-${Date.now()}@example.com`,
    password: 'Sup3rSecret!',
    ...overrides,
  };
}

/** Registers a user through the API and returns its session. */
export async function registerUser(app: FastifyInstance, overrides: Parameters<typeof buildUser>[0] = {}) {
  const payload = buildUser(overrides);
  const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.body}`);
  const { data } = response.json() as {
    data: { token: string; refreshToken: string; user: { id: string; email: string; name: string; role: string } };
  };
  const auth = { authorization: `Bearer ${data.token}` };
  // The personal workspace sign-up made: the scope of the user's own work in tests (ADR 0070).
  const listed = await app.inject({ method: 'GET', url: '/api/workspaces', headers: auth });
  const personal = (listed.json() as { data: { id: string; personal: boolean }[] }).data.find((w) => w.personal);
  if (!personal) throw new Error(`no personal workspace: ${listed.body}`);
  const scope = { workspaceId: personal.id, userId: data.user.id };
  return { ...data, password: payload.password, auth, workspaceId: personal.id, scope };
}

/** A new user on `planId`, upgraded through the API on the local billing (the free plan is where sign-up leaves one). */
export async function registerOnPlan(app: FastifyInstance, planId: PlanId) {
  const session = await registerUser(app);
  if (planId !== 'free') {
    const response = await app.inject({
      method: 'POST',
      url: '/api/subscription/upgrade',
      headers: session.auth,
      payload: { planId },
    });
    if (response.statusCode !== 200) throw new Error(`upgrade to ${planId} failed: ${response.body}`);
  }
  return session;
}

/**
 * Marks a user's current address verified in the database, as a used confirmation link would (ADR 0054), for
 * tests whose subject is what happens after; the link itself is tested in email-verification.pg.test.ts.
 */
export async function markEmailVerified(t: Pick<TestApp, 'inspect'>, userId: string): Promise<void> {
  await t.inspect((db) =>
    db.execute(sql`update users set verified_email = email, email_verified_at = now() where id = ${userId}`),
  );
}

/** Runs one statement as the tables' owner (to take a grant away, say), back in the login user's role. */
export function asOwner(t: TestApp, statement: SQL): Promise<unknown> {
  return t.inspect(async (db) => {
    await db.execute(sql`set local role none`);
    return db.execute(statement);
  });
}

/** Puts a registered user on a plan through the API (local billing applies it at once). */
export async function choosePlan(app: FastifyInstance, session: { auth: Record<string, string> }, planId: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/subscription/upgrade',
    headers: session.auth,
    payload: { planId },
  });
  if (response.statusCode !== 200) throw new Error(`upgrade failed: ${response.body}`);
}
