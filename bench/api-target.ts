// One server for bench/api.bench.ts, in its own process so the load generator does not share its event loop.
// `bare`: a Fastify route with no plugins; `pglite` / `postgres`: the real server on a fresh database.
// Prints one JSON line ({ port, token }) once it listens; ends on SIGTERM.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@adpilot/db';
import Fastify from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/env.ts';
import { createContext } from '../apps/server/src/context.ts';

const mode = process.argv[2];
const cleanups: (() => Promise<void> | void)[] = [];
process.on('SIGTERM', async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  process.exit(0);
});

async function bare(): Promise<{ port: number }> {
  const app = Fastify();
  const user = { id: randomBytes(16).toString('hex'), name: 'Bench', email: 'bench@example.com', role: 'user' };
  app.get('/api/ad-accounts', async () => ({ success: true, data: [] }));
  app.get('/api/auth/me', async () => ({ success: true, data: user }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port };
}

/**
 * The floor under the real server: a bare Fastify route that runs one unit of work as the server does (the opening
 * `begin; set_config`, one select, `commit`) straight on the driver, with no auth, Drizzle or serialisation.
 */
async function floor(kind: 'pglite' | 'postgres'): Promise<{ port: number }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const user = '00000000-0000-0000-0000-000000000001';
  const opening = `select set_config('app.user_id', '${user}', true)`;
  const select = 'select id, name from floor_accounts where user_id = $1';
  let unitOfWork: () => Promise<unknown>;
  if (kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: await scratchDatabase(), max: 10 });
    pool.on('error', () => undefined);
    await pool.query('create table floor_accounts (id uuid primary key, user_id uuid not null, name text)');
    cleanups.push(() => pool.end());
    unitOfWork = async () => {
      const client = await pool.connect();
      try {
        await client.query(`begin; ${opening}`);
        const { rows } = await client.query(select, [user]);
        await client.query('commit');
        return rows;
      } finally {
        client.release();
      }
    };
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'adpilot-bench-floor-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const db = new PGlite(dataDir);
    await db.exec('create table floor_accounts (id uuid primary key, user_id uuid not null, name text)');
    cleanups.push(() => db.close());
    unitOfWork = () =>
      db.transaction(async (tx) => {
        await tx.exec(opening);
        return (await tx.query(select, [user])).rows;
      });
  }
  const app = Fastify();
  app.get('/api/ad-accounts', async () => ({ success: true, data: await unitOfWork() }));
  app.get('/api/auth/me', async () => ({ success: true, data: await unitOfWork() }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  cleanups.push(() => app.close());
  return { port: (app.server.address() as { port: number }).port };
}

/** A new database on the bench's Postgres server, dropped at the end; its URL. */
async function scratchDatabase(): Promise<string> {
  const server = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `adpilot_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  // Cleanups run last-registered first: the database is dropped after everything that uses it has closed.
  cleanups.unshift(async () => {
    const cleanup = new pg.Client({ connectionString: server });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  });
  const target = new URL(server);
  target.pathname = `/${name}`;
  return target.toString();
}

async function real(kind: 'pglite' | 'postgres'): Promise<{ port: number; token: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'adpilot-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const url = kind === 'postgres' ? await scratchDatabase() : undefined;
  const config = loadConfig({
    NODE_ENV: 'production',
    // Request lines are at debug by default: the bench measures what production runs.
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    DATABASE_URL: url ?? '',
    PUBLIC_URL: 'http://127.0.0.1:3000',
    WEB_DIST_DIR: '/nonexistent',
    // The flood limiter would answer 429 after 600 requests: the bench measures the code, not the limiter.
    RATE_LIMIT_MAX: '0',
    REGISTRATION_LIMIT_PER_HOUR: '0',
  });
  const database = await openDatabase({ url, dataDir: `${dataDir}/pglite`, poolSize: config.databasePoolSize });
  const log = pino({ level: 'warn' });
  const ctx = createContext({ config, database, appSecret: randomBytes(32).toString('hex'), log });
  const app = await buildApp(ctx, { logStream: pino.destination('/dev/null') });
  await app.listen({ port: 0, host: '127.0.0.1' });
  await ctx.jobs.start({ work: true });
  cleanups.push(async () => {
    await app.close();
    await ctx.jobs.stop();
    await database.close();
  });
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: 'Bench', email: 'bench@example.com', password: 'Sup3rSecret!' },
  });
  const { token } = registered.json().data as { token: string };
  return { port: (app.server.address() as { port: number }).port, token };
}

const started =
  mode === 'bare'
    ? await bare()
    : mode?.endsWith('-floor')
      ? await floor(mode.startsWith('postgres') ? 'postgres' : 'pglite')
      : await real(mode === 'postgres' ? 'postgres' : 'pglite');
process.stdout.write(`${JSON.stringify(started)}\n`);
