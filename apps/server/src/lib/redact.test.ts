import { createTestDatabase } from '@adpilot/db/testing';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config/env.ts';
import { createContext, type AppContext } from '../context.ts';
import { AuthRepository } from '../modules/auth/auth.repository.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { TEST_SECRET } from '../test/test-app.ts';
import { logOptions, redactSecretsInText } from './redact.ts';

/** Every line the server and its jobs log, as written to the destination stream. */
const lines: string[] = [];
const stream = { write: (line: string) => void lines.push(line) };
const logged = () => lines.join('');
const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

let app: FastifyInstance;
let ctx: AppContext;
let closeDatabase: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  closeDatabase = () => database.close();
  // Trace: request lines included, whatever level the instance runs at.
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'trace',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST_DIR: '/nonexistent',
  });
  ctx = createContext({ config, database, appSecret: TEST_SECRET, log: pino(logOptions('trace'), stream) });
  app = await buildApp(ctx, { logStream: stream });
  // A route whose repository call fails inside the database: a NUL byte cannot be stored in a text column.
  app.post<{ Body: { email: string; passwordHash: string } }>('/failing-query', async (request) => {
    const { email, passwordHash } = request.body;
    await ctx.database.system('test', (tx) =>
      new AuthRepository(ctx.database, ctx.database.db).createUser(tx, { name: 'Null\u0000Byte', email, passwordHash }),
    );
    return { ok: true };
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await closeDatabase();
});

describe('captured log output', () => {
  it('logs a failed query with its SQL and error code, never its parameter values', async () => {
    const passwordHash = await hashPassword('Captured-Passw0rd');
    const email = 'failing-query-owner@example.com';
    lines.length = 0;
    const response = await app.inject({ method: 'POST', url: '/failing-query', payload: { email, passwordHash } });
    expect(response.statusCode).toBe(500);

    const error = records().find((record) => record.msg === 'unhandled error');
    expect(error?.err).toMatchObject({
      message: expect.stringContaining('Failed query: insert into "users"'),
      cause: { code: expect.stringMatching(/^22/) },
    });
    expect(logged()).not.toContain(passwordHash);
    expect(logged()).not.toContain(passwordHash.split('$').at(-1));
    expect(logged()).not.toContain(email);
  });

  it('keeps the e-mail and the password hash of a failing registration out of the log', async () => {
    lines.length = 0;
    const email = 'nul-byte-owner@example.com';
    // A NUL byte cannot be stored in a text column: whatever the API answers, the log must not hold the values.
    await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Null\u0000Byte', email, password: 'Sup3rSecret!' },
    });
    expect(logged()).not.toContain(email);
    expect(logged()).not.toMatch(/\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{8,}/);
  });

  it('logs the jobs logger’s errors through the same serializers, without the value Postgres quotes back', async () => {
    lines.length = 0;
    const failure = await new AuthRepository(ctx.database, ctx.database.db)
      .findUserById('job-secret-value-123')
      .catch((error: unknown) => error);
    pino(logOptions('info'), stream).error({ err: failure }, 'job failed');
    expect(records()[0]?.err).toMatchObject({
      message: expect.stringContaining('Failed query'),
      cause: { code: '22P02', message: 'invalid input syntax for type uuid: "REDACTED"' },
    });
    expect(logged()).not.toContain('job-secret-value-123');
  });

  it('logs requests without secret query parameters or secret headers', async () => {
    const secrets = {
      token: 'sse-token-Secret-1',
      accessToken: 'access-token-Secret-2',
      clientSecret: 'client-secret-Secret-3',
      exchange: 'exchange-token-Secret-4',
      code: 'oauth-code-Secret-5',
      proof: 'appsecret-proof-Secret-6',
      password: 'query-password-Secret-7',
      bearer: 'bearer-Secret-8',
      cookie: 'cookie-Secret-9',
    };
    lines.length = 0;
    const headers = { authorization: `Bearer ${secrets.bearer}`, cookie: `sid=${secrets.cookie}` };
    const urls = [
      `/api/auth/me?token=${secrets.token}&view=full`,
      `/api/ad-accounts/callback?code=${secrets.code}&state=abc&Access_Token=${secrets.accessToken}`,
      `/sandbox/meta/v27.0/oauth/access_token?client_id=1&client_secret=${secrets.clientSecret}` +
        `&grant_type=fb_exchange_token&fb_exchange_token=${secrets.exchange}&appsecret_proof=${secrets.proof}`,
      `/api/auth/reset-password?password=${secrets.password}`,
    ];
    for (const url of urls) await app.inject({ method: 'GET', url, headers });

    const requestLines = records().filter((record) => record.msg === 'request completed');
    expect(requestLines.map((record) => (record.req as { url: string }).url)).toEqual([
      '/api/auth/me?token=REDACTED&view=full',
      '/api/ad-accounts/callback?code=REDACTED&state=REDACTED&Access_Token=REDACTED',
      '/sandbox/meta/v27.0/oauth/access_token?client_id=1&client_secret=REDACTED&grant_type=fb_exchange_token' +
        '&fb_exchange_token=REDACTED&appsecret_proof=REDACTED',
      '/api/auth/reset-password?password=REDACTED',
    ]);
    for (const secret of Object.values(secrets)) expect(logged()).not.toContain(secret);
  });
});

describe('redactSecretsInText', () => {
  it('removes secret parameters and JSON fields echoed in a message, and Drizzle’s parameter line', () => {
    expect(
      redactSecretsInText(
        'request to https://g.example/me?access_token=EAAB&x=1 failed; body {"password":"p\\"w","name":"Ann"}',
      ),
    ).toBe(
      'request to https://g.example/me?access_token=REDACTED&x=1 failed; body {"password":"REDACTED","name":"Ann"}',
    );
    expect(redactSecretsInText('Failed query: select $1\nparams: ann@example.com,$argon2id$v=19')).toBe(
      'Failed query: select $1',
    );
    expect(redactSecretsInText('form client_secret=abc&grant_type=x')).toBe('form client_secret=REDACTED&grant_type=x');
  });

  it('removes the password of a URL’s user information, and keeps the user and the host', () => {
    expect(redactSecretsInText('connect smtp://mailer:s3cr%40t@mail.example:587 failed')).toBe(
      'connect smtp://mailer:REDACTED@mail.example:587 failed',
    );
    expect(redactSecretsInText('postgres://adpilot:pw@db:5432/adpilot and https://user@host/x?a=1')).toBe(
      'postgres://adpilot:REDACTED@db:5432/adpilot and https://user@host/x?a=1',
    );
    expect(redactSecretsInText('at https://g.example/v27.0/me (10:30)')).toBe('at https://g.example/v27.0/me (10:30)');
  });
});
