import type { DatabaseHandle } from '@adpilot/db';
import { createTestDatabase } from '@adpilot/db/testing';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAi } from './test/fake-openai.ts';
import { answerConsent } from './test/meta-sandbox.ts';
import { freePort, killAll, listening, ready, sharedEnv, start, until, type Running } from './test/processes.ts';
import { buildUser, TEST_SECRET } from './test/test-app.ts';

// Two processes on one database need a server both reach: Postgres only (TEST_DATABASE_URL; CI sets it).
describe.skipIf(!process.env.TEST_DATABASE_URL)('ROLE=api and ROLE=worker as real processes on one Postgres', () => {
  let database: DatabaseHandle;
  let fake: FakeOpenAi;
  let dataDir: string;
  let api: Running;
  let worker: Running;
  const ports = { api: 0, worker: 0, workerProbe: 0 };
  let base: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    fake = await FakeOpenAi.start();
    ports.api = await freePort();
    ports.worker = await freePort();
    ports.workerProbe = await freePort();
    base = `http://127.0.0.1:${ports.api}`;
    const common = {
      ...sharedEnv({
        databaseUrl: database.url ?? '',
        appSecret: TEST_SECRET,
        publicUrl: base,
        folderPrefix: 'adpilot-roles-',
      }),
      AI_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_MODEL: 'test-model',
      SHUTDOWN_TIMEOUT_SECONDS: '20',
    };
    dataDir = common.DATA_DIR;
    api = start({ ...common, ROLE: 'api', PORT: String(ports.api) });
    worker = start({ ...common, ROLE: 'worker', PORT: String(ports.worker), HEALTH_PORT: String(ports.workerProbe) });
    await Promise.all([
      ready(ports.api, 'the API to be ready', api),
      ready(ports.workerProbe, 'the worker to be ready', worker),
    ]);
  }, 60_000);

  afterAll(async () => {
    killAll([api, worker]);
    await fake?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A signed-in user of the API process, with the sandbox's ad accounts connected. */
  async function signUp(): Promise<string[]> {
    const registered = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(buildUser()),
    });
    expect(registered.status).toBe(201);
    auth = { authorization: `Bearer ${((await registered.json()) as { data: { token: string } }).data.token}` };
    const started = await fetch(`${base}/api/ad-accounts/facebook/auth-url`, { headers: auth });
    const back = await answerConsent(((await started.json()) as { data: { authUrl: string } }).data.authUrl);
    const connected = await fetch(`${base}/api/ad-accounts/facebook/callback`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ code: back.searchParams.get('code'), state: back.searchParams.get('state') }),
    });
    expect(connected.status).toBe(200);
    const { data } = (await connected.json()) as { data: { connectedAccounts: { id: string }[] } };
    return data.connectedAccounts.map((account) => account.id);
  }

  type Account = { id: string; sync_status: string; last_sync: string | null };
  const account = async (id: string): Promise<Account | undefined> => {
    const listed = (await (await fetch(`${base}/api/ad-accounts`, { headers: auth })).json()) as { data: Account[] };
    return listed.data.find((row) => row.id === id);
  };

  it('serves the API on the API process only, and the worker runs the jobs the API enqueues', async () => {
    const ready = (await (await fetch(`${base}/api/ready`)).json()) as { data: unknown };
    expect(ready.data).toEqual({
      ready: true,
      checks: { database: { ok: true }, queue: { ok: true }, migrations: { ok: true, pending: 0 } },
    });
    const health = (await (await fetch(`http://127.0.0.1:${ports.workerProbe}/api/health`)).json()) as {
      data: { role: string };
    };
    expect(health.data.role).toBe('worker');
    // The worker answers the probes on HEALTH_PORT and nothing else; PORT is not its.
    const login = await fetch(`http://127.0.0.1:${ports.workerProbe}/api/auth/login`, { method: 'POST' });
    expect(login.status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${ports.workerProbe}/`)).status).toBe(404);
    expect(await listening(ports.worker)).toBe(false);

    // The API enqueues the first syncs of the accounts it connects (it runs no handler: ROLE=api); the worker runs them.
    const [first] = await signUp();
    const synced = await until(async () => {
      const row = await account(first!);
      return row?.sync_status === 'idle' && row.last_sync ? row : undefined;
    }, 'the worker to sync the account');
    expect(synced.last_sync).not.toBeNull();
  });

  it('SIGTERM: a worker finishes the job it is running, then exits', async () => {
    const listed = (await (await fetch(`${base}/api/ad-accounts`, { headers: auth })).json()) as { data: Account[] };
    const id = listed.data[0]!.id;
    const before = (await account(id))!.last_sync!;
    // Every Graph call of the sandbox (served by the API) now takes a while: the sync runs for seconds.
    const slow = await fetch(`${base}/sandbox/meta/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 300 }),
    });
    expect(slow.ok).toBe(true);
    const queued = await fetch(`${base}/api/ad-accounts/${id}/sync`, { method: 'POST', headers: auth });
    expect(queued.status).toBe(202);
    await until(async () => ((await account(id))?.sync_status === 'syncing' ? true : undefined), 'the sync to run');

    worker.child.kill('SIGTERM');
    expect(await worker.exited, worker.output.join('')).toBe(0);
    const after = (await account(id))!;
    expect(after.sync_status).toBe('idle');
    expect(new Date(after.last_sync!).getTime()).toBeGreaterThan(new Date(before).getTime());
    await fetch(`${base}/sandbox/meta/__sandbox/faults`, { method: 'DELETE' });
  });

  it('SIGTERM: the API stops accepting and finishes the request in flight, then exits', async () => {
    fake.reply({ content: 'Finished after the signal.', delayMs: 1500 });
    const inFlight = fetch(`${base}/api/ai/chat`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'How are my ads doing?' }),
    }).then(async (answer) => ({ status: answer.status, body: await answer.text() }));
    const first = await Promise.race([
      until(async () => (fake.requests.length > 0 ? 'at the model' : undefined), 'the request to reach the model'),
      inFlight.then((answer) => `answered before the model did: ${answer.status} ${answer.body}`),
    ]);
    expect(first).toBe('at the model');

    api.child.kill('SIGTERM');
    // New connections are refused while the request in flight is still being answered.
    await until(async () => ((await listening(ports.api)) ? undefined : true), 'the API to stop accepting');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { data: unknown }).data).toMatchObject({
      response: 'Finished after the signal.',
    });
    expect(await api.exited, api.output.join('')).toBe(0);
  });
});
