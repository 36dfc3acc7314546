import type { DatabaseHandle } from '@adpilot/db';
import { createTestDatabase } from '@adpilot/db/testing';
import { sql, type SQL } from 'drizzle-orm';
import { rmSync } from 'node:fs';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFY_JOBS } from './modules/notifications/notification-dispatcher.ts';
import { REPORT_JOBS } from './modules/reports/schedules/report-scheduler.ts';
import { RULE_RUN_JOB, RULE_TICK_JOB } from './modules/rules/rules.jobs.ts';
import { answerConsent } from './test/meta-sandbox.ts';
import { freePort, killAll, ready, serverEntry, sharedEnv, start, until, type Running } from './test/processes.ts';
import { buildRule } from './test/rule-factories.ts';
import { entriesOf, openSse } from './test/sse-client.ts';
import { buildUser, TEST_SECRET } from './test/test-app.ts';

/**
 * The deployed shape (ADR 0083): two API processes and two workers of the real server on one Postgres database.
 * API "a" hosts the embedded Meta sandbox (PUBLIC_URL and INTERNAL_URL name it); "b" serves everything that needs no
 * Meta call. The minute and five-minute ticks are pg-boss schedules; instead of waiting for the clock, the test
 * enqueues each tick twice, as two workers' clocks could, and reads the database for what came of them.
 */
const entry = serverEntry();

// Its title says which the processes start from: the built bundle or the sources.
describe.skipIf(!process.env.TEST_DATABASE_URL)(`two APIs and two workers on one Postgres (${entry.from})`, () => {
  let database: DatabaseHandle;
  let dataDir: string;
  let boss: PgBoss;
  const apis: Record<'a' | 'b', { port: number; base: string; running?: Running }> = {
    a: { port: 0, base: '' },
    b: { port: 0, base: '' },
  };
  const workers: { probe: number; running?: Running }[] = [{ probe: 0 }, { probe: 0 }];
  let user: { auth: Record<string, string>; token: string; email: string; workspaceId: string; accounts: string[] };

  const rows = async <T>(query: SQL): Promise<T[]> =>
    database.system('topology test', async (tx) => ((await tx.db.execute(query)) as unknown as { rows: T[] }).rows);

  beforeAll(async () => {
    database = await createTestDatabase();
    for (const api of Object.values(apis)) {
      api.port = await freePort();
      api.base = `http://127.0.0.1:${api.port}`;
    }
    for (const worker of workers) worker.probe = await freePort();
    const common = {
      ...sharedEnv({
        databaseUrl: database.url ?? '',
        appSecret: TEST_SECRET,
        publicUrl: apis.a.base,
        folderPrefix: 'adpilot-topology-',
      }),
      INTERNAL_URL: apis.a.base,
      LOG_STREAM_HEARTBEAT_MS: '1000',
    };
    dataDir = common.DATA_DIR;
    for (const api of Object.values(apis))
      api.running = start({ ...common, ROLE: 'api', PORT: String(api.port) }, entry);
    for (const worker of workers)
      worker.running = start({ ...common, ROLE: 'worker', HEALTH_PORT: String(worker.probe) }, entry);
    // Four processes compiling the sources through tsx at once on a busy machine take far longer than the bundle.
    const startMs = entry.from === 'bundle' ? 40_000 : 150_000;
    await Promise.all([
      ...Object.entries(apis).map(([name, api]) => ready(api.port, `API ${name}`, api.running, startMs)),
      ...workers.map((worker, index) => ready(worker.probe, `worker ${index + 1}`, worker.running, startMs)),
    ]);
    // The test's own producer on the queue (it runs no handler and no schedule): the ticks it enqueues.
    boss = new PgBoss({ connectionString: database.url, schema: 'pgboss', max: 2, schedule: false, supervise: false });
    boss.on('error', () => undefined);
    await boss.start();
    user = await signUp();
  }, 240_000);

  afterAll(async () => {
    killAll([apis.a.running, apis.b.running, ...workers.map((worker) => worker.running)]);
    await boss?.stop({ graceful: false }).catch(() => undefined);
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A user signed up through API "a", the sandbox's accounts connected and synced by the workers. */
  async function signUp() {
    const person = buildUser();
    const registered = await fetch(`${apis.a.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(person),
    });
    expect(registered.status).toBe(201);
    const token = ((await registered.json()) as { data: { token: string } }).data.token;
    const auth = { authorization: `Bearer ${token}` };
    const started = await fetch(`${apis.a.base}/api/ad-accounts/facebook/auth-url`, { headers: auth });
    const back = await answerConsent(((await started.json()) as { data: { authUrl: string } }).data.authUrl);
    const connected = await fetch(`${apis.a.base}/api/ad-accounts/facebook/callback`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ code: back.searchParams.get('code'), state: back.searchParams.get('state') }),
    });
    expect(connected.status).toBe(200);
    const { data } = (await connected.json()) as { data: { connectedAccounts: { id: string }[] } };
    const accounts = data.connectedAccounts.map((account) => account.id);
    await until(
      async () => {
        const synced = await rows<{ n: number }>(
          sql`select count(*)::int as n from ad_accounts where sync_status = 'idle' and last_sync is not null`,
        );
        return synced[0]!.n >= accounts.length ? true : undefined;
      },
      'the workers to sync the accounts',
      30_000,
    );
    const [member] = await rows<{ workspace_id: string }>(
      sql`select m.workspace_id from workspace_members m join users u on u.id = m.user_id where u.email = ${person.email}`,
    );
    return { auth, token, email: person.email, workspaceId: member!.workspace_id, accounts };
  }

  const call = (api: 'a' | 'b', method: string, path: string, body?: unknown) =>
    fetch(`${apis[api].base}${path}`, {
      method,
      headers: { ...user.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /**
   * Enqueues a tick twice, as two workers' clocks could, then waits until both ran and no job of the `then` queues
   * (what the ticks enqueue) is waiting, retrying or running: everything they stand for has happened.
   */
  async function tickTwice(name: string, then: string[]): Promise<void> {
    const ids = await Promise.all([boss.send(name, {}), boss.send(name, {})]);
    const unfinished = new Set(['created', 'retry', 'active']);
    await until(
      async () => {
        const ticks = (await boss.findJobs(name)).filter((job) => ids.includes(job.id));
        if (ticks.some((job) => job.state !== 'completed')) return undefined;
        for (const queue of then)
          if ((await boss.findJobs(queue)).some((job) => unfinished.has(job.state))) return undefined;
        return true;
      },
      `the ticks of ${name} and the jobs of ${then.join(', ')} to be done`,
      30_000,
    );
  }

  it('streams an entry written through either API to a client of the other', async () => {
    const stream = (api: 'a' | 'b') =>
      openSse(`${apis[api].base}/api/logs/stream?token=${encodeURIComponent(user.token)}`);
    const onA = await stream('a');
    const onB = await stream('b');
    try {
      expect([onA.status, onB.status]).toEqual([200, 200]);
      const written = async (api: 'a' | 'b', description: string) =>
        expect((await call(api, 'POST', '/api/logs', { description })).status).toBe(201);
      await written('a', 'Written through A');
      await written('b', 'Written through B');
      // Each client gets both entries, the other API's too, each once and in the order of the user's sequence.
      const mine = (connection: typeof onA) =>
        entriesOf(connection)
          .map((entry) => entry.description)
          .filter((description) => description.startsWith('Written through'));
      for (const connection of [onA, onB]) {
        await connection.waitFor(() => mine(connection).length >= 2, 10_000);
        expect(mine(connection)).toEqual(['Written through A', 'Written through B']);
      }
    } finally {
      onA.close();
      onB.close();
    }
  });

  it('runs a due rule slot once across the two workers, and e-mails an error entry once', async () => {
    const [account] = user.accounts;
    await call('a', 'POST', '/sandbox/meta/__sandbox/stats/reset');
    const created = await call(
      'a',
      'POST',
      '/api/rules',
      buildRule({
        isActive: true,
        scope: { adAccountIds: [account!], level: 'campaign', statuses: ['ACTIVE'] },
        conditions: { match: 'all', items: [{ metric: 'spend', operator: 'gte', value: 0, window: 'last_7d' }] },
        schedule: { everyMinutes: 60 },
      }),
    );
    expect(created.status, await created.clone().text()).toBe(201);
    const ruleId = ((await created.json()) as { data: { id: string } }).data.id;

    // Both workers' minute ticks find the slot due at once (each takes one of the two ticks, or one takes both).
    await tickTwice(RULE_TICK_JOB, [RULE_RUN_JOB]);
    const runs = await rows<{ status: string }>(sql`select status from rule_runs where rule_id = ${ruleId}`);
    expect(runs).toEqual([{ status: 'completed' }]);
    const actions = await rows<{ target_external_id: string; state: string }>(
      sql`select target_external_id, state from rule_actions where rule_id = ${ruleId}`,
    );
    expect(actions.length).toBeGreaterThan(0);
    expect(new Set(actions.map((action) => action.target_external_id)).size).toBe(actions.length);
    expect(actions.every((action) => action.state === 'applied')).toBe(true);
    // Meta got one write per action, not one per worker.
    const stats = (await (await call('a', 'GET', '/sandbox/meta/__sandbox/stats')).json()) as {
      byKind: Record<string, number>;
    };
    expect(stats.byKind.update).toBe(actions.length);

    // An error entry (as a sync writes it) with e-mail on: both workers scan at once, one mail leaves.
    await rows(sql`update users set verified_email = email, email_verified_at = now() where email = ${user.email}`);
    expect((await call('b', 'PUT', '/api/notifications', { emailErrors: true })).status).toBe(200);
    await rows(
      sql`insert into activity_logs (workspace_id, level, category, description, metadata)
          values (${user.workspaceId}, 'error', 'sync', 'Token expired for the topology store', '{}')`,
    );
    await tickTwice(NOTIFY_JOBS.scan, [NOTIFY_JOBS.nudge, NOTIFY_JOBS.email]);
    const mails = await rows<{ subject: string }>(
      sql`select subject from mail_outbox where to_address = ${user.email}`,
    );
    expect(mails.map((mail) => mail.subject)).toEqual(['AdPilot: Error: Token expired for the topology store']);
  }, 60_000);

  it('sends a due scheduled report once across the two workers', async () => {
    const recipient = `report-${Date.now()}@example.com`;
    const created = await call('b', 'POST', '/api/reports/schedules', {
      frequency: 'weekly',
      language: 'en',
      recipients: [recipient],
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const scheduleId = ((await created.json()) as { data: { id: string } }).data.id;
    // A schedule sends the periods that come due after it was made: made eight days ago, last week's is due now.
    await rows(sql`update report_schedules set created_at = now() - interval '8 days' where id = ${scheduleId}`);

    await tickTwice(REPORT_JOBS.tick, [REPORT_JOBS.send]);
    const deliveries = await rows<{ status: string; trigger: string }>(
      sql`select status, trigger from report_deliveries where schedule_id = ${scheduleId}`,
    );
    expect(deliveries).toEqual([{ status: 'sent', trigger: 'scheduled' }]);
    const mails = await rows(sql`select id from mail_outbox where to_address = ${recipient}`);
    expect(mails).toHaveLength(1);
  }, 60_000);
  it('hands the job of a worker killed mid-write to the other worker, and writes to Meta once', async () => {
    const account = user.accounts.at(-1)!;
    // An active ad whose name no other ad's contains: the rule's name filter selects it alone.
    const ads = await rows<{ name: string; status: string; external_id: string }>(
      sql`select name, status, external_id from ad_entities where ad_account_id = ${account} and level = 'ad'`,
    );
    const ad = ads.find(
      (candidate) =>
        candidate.status === 'ACTIVE' &&
        ads.every((other) => other === candidate || !other.name.includes(candidate.name)),
    );
    if (!ad) throw new Error('no ad to pause');
    const created = await call(
      'a',
      'POST',
      '/api/rules',
      buildRule({
        scope: { adAccountIds: [account], level: 'ad', nameContains: ad.name, statuses: ['ACTIVE'] },
        conditions: { match: 'all', items: [{ metric: 'spend', operator: 'gte', value: 0, window: 'last_7d' }] },
      }),
    );
    expect(created.status, await created.clone().text()).toBe(201);
    const ruleId = ((await created.json()) as { data: { id: string } }).data.id;

    // The second worker is paused until the first is dead, so the first takes the job. Every Graph call now takes
    // two seconds: the first worker leases the ad's row, reads the ad live, sends the pause and is killed while the
    // sandbox holds the write (Meta applies it; the ledger never hears of it).
    const stats = async () =>
      (await (await call('a', 'GET', '/sandbox/meta/__sandbox/stats')).json()) as {
        total: number;
        byKind: Record<string, number>;
      };
    const [first, second] = [workers[0]!.running!, workers[1]!.running!];
    second.child.kill('SIGSTOP');
    try {
      expect((await call('a', 'POST', '/sandbox/meta/__sandbox/faults', { latencyMs: 2000 })).ok).toBe(true);
      const queued = await call('a', 'POST', `/api/rules/${ruleId}/run`);
      expect(queued.status).toBe(202);
      const runId = ((await queued.json()) as { data: { runId: string } }).data.runId;
      await until(async () => {
        const [row] = await rows<{ n: number }>(
          sql`select count(*)::int as n from rule_actions where run_id = ${runId} and lease_until > now()`,
        );
        return row!.n > 0 ? true : undefined;
      }, 'the first worker to lease the ad');
      await call('a', 'POST', '/sandbox/meta/__sandbox/stats/reset');
      await until(async () => ((await stats()).total > 0 ? true : undefined), 'the live read');
      await new Promise((resolve) => setTimeout(resolve, 500));
      first.child.kill('SIGKILL');
      await first.exited;
      // The write the dead worker sent lands on Meta: the kill came between the write and the ledger.
      await until(async () => ((await stats()).byKind.update === 1 ? true : undefined), 'the first write on Meta');
    } finally {
      second.child.kill('SIGCONT');
    }
    await call('a', 'DELETE', '/sandbox/meta/__sandbox/faults');

    // The dead worker's job and lease run out as they would in ten and two minutes (the queue's expiry of a rule run
    // and the ledger's lease); the queue's supervisor hands the job back and the second worker takes it.
    const [job] = (await boss.findJobs(RULE_RUN_JOB)).filter(
      (found) => (found.data as { ruleId?: string }).ruleId === ruleId,
    );
    expect(job?.state).toBe('active');
    const queueDb = boss.getDb();
    await queueDb.executeSql(`update pgboss.job set started_on = now() - interval '1 hour' where id = $1`, [job!.id]);
    await rows(sql`update rule_actions set lease_until = now() where rule_id = ${ruleId}`);
    await boss.supervise(RULE_RUN_JOB);
    await queueDb.executeSql(`update pgboss.job set start_after = now() where id = $1 and state = 'retry'`, [job!.id]);
    const [run] = await until(async () => {
      const found = await rows<{ status: string }>(
        sql`select status from rule_runs where rule_id = ${ruleId} and status in ('completed', 'failed')`,
      );
      return found.length > 0 ? found : undefined;
    }, 'the second worker to finish the run');
    expect(run).toEqual({ status: 'completed' });
    const ledger = await rows<{ state: string; attempts: number; target_external_id: string }>(
      sql`select state, attempts, target_external_id from rule_actions where rule_id = ${ruleId}`,
    );
    expect(ledger).toEqual([{ state: 'applied', attempts: expect.any(Number), target_external_id: ad.external_id }]);
    expect(ledger[0]!.attempts).toBeGreaterThanOrEqual(2);
    // Still the one pause on Meta: the second worker found it there and recorded it without writing again.
    expect((await stats()).byKind.update).toBe(1);
  }, 60_000);
});
