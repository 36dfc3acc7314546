import { openDatabase, users, type DatabaseHandle } from '@adpilot/db';
import { createTestDatabase } from '@adpilot/db/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config/env.ts';
import type { ProviderSettings } from '../../config/runtime-settings.ts';
import { createContext, type AppContext } from '../../context.ts';
import { startSmtpFake, type RunningSmtpFake } from '../../test/fakes/smtp-fake.ts';
import { registerUser, TEST_SECRET } from '../../test/test-app.ts';

/** One process of the instance: its own context and app on a database handle, its log lines kept. */
async function startProcess(database: DatabaseHandle) {
  const lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'trace', WEB_DIST_DIR: '/nonexistent' });
  const ctx = createContext({ config, database, appSecret: TEST_SECRET, log: pino({ level: 'trace' }, stream) });
  const app = await buildApp(ctx, { logStream: stream });
  await app.ready();
  return { ctx, app, lines };
}

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('settings across the processes of one instance', () => {
  let database: DatabaseHandle;
  let second: DatabaseHandle;
  let api: { ctx: AppContext; app: FastifyInstance; lines: string[] };
  let worker: { ctx: AppContext; app: FastifyInstance; lines: string[] };
  let smtp: RunningSmtpFake;

  beforeAll(async () => {
    database = await createTestDatabase();
    // On Postgres the second process has its own pool and its own listening connection; PGlite is one process's.
    second = database.url ? await openDatabase({ url: database.url, poolSize: 2 }) : database;
    api = await startProcess(database);
    worker = await startProcess(second);
    smtp = await startSmtpFake({ user: 'ops@example.com', pass: 'smtp-secret-pass-77' });
  });
  afterAll(async () => {
    await api.app.close();
    await worker.app.close();
    if (second !== database) await second.close();
    await database.close();
    await smtp.close();
  });

  it('applies a save in every process without a restart: the other process mails through the new SMTP server', async () => {
    const admin = await registerUser(api.app);
    await api.ctx.database.system('test', (tx) =>
      tx.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.user.id)),
    );
    const seen: ProviderSettings[] = [];
    worker.ctx.settingsStore.subscribe((settings) => seen.push(settings));
    expect(worker.ctx.mailer.kind).toBe('outbox');

    const saved = await api.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin.auth,
      payload: {
        smtpHost: '127.0.0.1',
        smtpPort: smtp.port,
        smtpUser: 'ops@example.com',
        smtpPass: 'smtp-secret-pass-77',
        stripeSecretKey: 'sk_test_secret_never_logged_42',
      },
    });
    expect(saved.statusCode).toBe(200);

    await eventually(() => worker.ctx.mailer.kind === 'smtp');
    expect(seen.at(-1)?.mail).toMatchObject({ mode: 'smtp', host: '127.0.0.1', port: smtp.port });
    await worker.ctx.mailer.send({
      to: 'someone@example.com',
      subject: 'Hello from the worker',
      text: 'sent through the server saved in Settings',
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(smtp.received.at(-1)).toMatchObject({ to: ['someone@example.com'], user: 'ops@example.com' });

    const refused = await api.app.inject({
      method: 'POST',
      url: '/api/settings/test-connection/stripe',
      headers: admin.auth,
    });
    expect(refused.json().data.success).toBe(false);

    // Nothing of either secret reached a log line of either process (requests logged at trace included).
    const logs = [...api.lines, ...worker.lines].join('\n');
    expect(api.lines.length).toBeGreaterThan(0);
    expect(logs).not.toContain('smtp-secret-pass-77');
    expect(logs).not.toContain('sk_test_secret_never_logged_42');

    // Clearing the server sends mail back to the outbox everywhere.
    await api.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin.auth,
      payload: { smtpHost: '', smtpPort: '', smtpUser: '', smtpPass: null },
    });
    await eventually(() => worker.ctx.mailer.kind === 'outbox');
  });
});
