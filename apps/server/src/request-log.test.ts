import { createTestDatabase } from '@adpilot/db/testing';
import type { DatabaseHandle } from '@adpilot/db';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadConfig } from './config/env.ts';
import { createContext } from './context.ts';
import { TEST_SECRET } from './test/test-app.ts';

// The terminal of a running server: what one request leaves in it at each log level.
let database: DatabaseHandle;
let app: FastifyInstance | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});
afterAll(async () => {
  await database.close();
});

async function appLoggingAt(level: 'info' | 'debug') {
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: level, WEB_DIST_DIR: '/nonexistent' });
  const ctx = createContext({ config, database, appSecret: TEST_SECRET, log: pino({ level: 'silent' }) });
  const lines: Record<string, unknown>[] = [];
  app = await buildApp(ctx, { logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  await app.ready();
  return { app, lines };
}

const requestLines = (lines: Record<string, unknown>[]) => lines.filter((line) => 'req' in line || 'res' in line);

describe('request log lines', () => {
  it('are not written at the default level (info)', async () => {
    const { app, lines } = await appLoggingAt('info');
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/nowhere' })).statusCode).toBe(404);
    expect(requestLines(lines)).toEqual([]);
  });

  it('are one debug line per request at debug, with status and time, and the token kept out', async () => {
    const { app, lines } = await appLoggingAt('debug');
    await app.inject({ method: 'GET', url: '/api/health?token=secret-token-value' });
    await app.inject({ method: 'GET', url: '/api/nowhere' });
    const logged = requestLines(lines);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({
      level: 20,
      msg: 'request completed',
      req: { method: 'GET', url: '/api/health?token=REDACTED' },
      res: { statusCode: 200 },
    });
    expect(logged[0]?.responseTime).toEqual(expect.any(Number));
    expect(logged[1]).toMatchObject({ level: 20, req: { url: '/api/nowhere' }, res: { statusCode: 404 } });
    expect(JSON.stringify(lines)).not.toContain('secret-token-value');
  });
});
