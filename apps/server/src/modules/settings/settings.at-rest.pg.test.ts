import { openDatabase, users } from '@adpilot/db';
import { eq } from 'drizzle-orm';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config/env.ts';
import { createContext } from '../../context.ts';
import { registerUser, TEST_SECRET } from '../../test/test-app.ts';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('settings secrets at rest in the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'adpilot-settings-at-rest-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('leaves no saved secret in plain text in the database files', async () => {
    const secrets = ['sk-at-rest-openai-key-5a9c1e', 'sk_test_at_rest_stripe_7b2d4f', 'smtp-at-rest-pass-3e8a6c'];
    const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: '/nonexistent',
    });
    const ctx = createContext({ config, database, appSecret: TEST_SECRET, log: pino({ level: 'silent' }) });
    const app = await buildApp(ctx, { logger: false });
    await app.ready();
    try {
      const admin = await registerUser(app);
      await database.system('test', (tx) =>
        tx.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.user.id)),
      );
      const saved = await app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: admin.auth,
        payload: {
          aiProvider: 'openai',
          openaiApiKey: secrets[0],
          stripeSecretKey: secrets[1],
          smtpHost: 'smtp.example.com',
          smtpPass: secrets[2],
        },
      });
      expect(saved.statusCode).toBe(200);
      // The values are in use, opened in memory only.
      expect(ctx.settingsStore.current().ai.apiKey).toBe(secrets[0]);
    } finally {
      await app.close();
      await database.close();
    }

    const files = filesUnder(join(dataDir, 'pglite'));
    expect(files.length).toBeGreaterThan(0);
    const marker = Buffer.from('smtp.example.com');
    // The check can fail: the non-secret host saved beside them is in the files in plain text.
    expect(files.some((file) => readFileSync(file).includes(marker))).toBe(true);
    for (const secret of secrets) {
      const needle = Buffer.from(secret);
      expect(
        files.filter((file) => readFileSync(file).includes(needle)),
        secret,
      ).toEqual([]);
    }
  }, 90_000); // opens, migrates, closes and reopens a file-backed database: slow on a busy machine
});
