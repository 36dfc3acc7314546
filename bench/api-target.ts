// One server for bench/api.bench.ts, in its own process so the load generator does not share its event loop.
// `bare`: a Fastify route with no plugins; `pglite` / `postgres`: the real server on a fresh database.
// Prints one JSON line ({ port, token }) once it listens; ends on SIGTERM.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adAccounts, APP_ROLE, openDatabase, users } from '@adpilot/db';
import { personalWorkspace } from '@adpilot/db/testing';
import { parse, protocol } from '@electric-sql/pglite';
import { asc, eq } from 'drizzle-orm';
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
 * The floor under the real server: a bare Fastify route doing the real route's database work and nothing more,
 * straight on the driver, with no auth, Drizzle, hooks or response schema. The database is the real one (migrated,
 * row-level security forced) with one user; each request is one tenant unit of work as the server opens it: the
 * tenant and the role set in the transaction (`begin; set_config(…)`), the route's select (the text Drizzle
 * generates for it, built once here; on Postgres a named statement, as the server's is), `commit`. On PGlite that is three calls into the engine, the fewest its
 * protocol allows without batching the commit into the select; on Postgres three round trips.
 */
async function floor(kind: 'pglite' | 'postgres'): Promise<{ port: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'adpilot-bench-floor-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const url = kind === 'postgres' ? await scratchDatabase() : undefined;
  const database = await openDatabase({ url, dataDir: `${dataDir}/pglite` });
  cleanups.push(() => database.close());
  const { workspaceId, userId } = await personalWorkspace(database, { name: 'Bench', email: 'bench@example.com' });
  const opening = `begin; select set_config('app.workspace_id', '${workspaceId}', true), set_config('app.user_id', '${userId}', true), set_config('role', '${APP_ROLE}', true)`;
  // The selects of AdAccountsRepository.list and AuthRepository.ownUser.
  const selects = {
    '/api/ad-accounts': database.db
      .select()
      .from(adAccounts)
      .where(eq(adAccounts.workspaceId, workspaceId))
      .orderBy(asc(adAccounts.createdAt), asc(adAccounts.facebookAccountName))
      .toSQL(),
    '/api/auth/me': database.db.select().from(users).where(eq(users.id, userId)).toSQL(),
  };
  let unitOfWork: (select: { name: string; sql: string; params: unknown[] }) => Promise<unknown[]>;
  if (kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c role=${APP_ROLE}` });
    pool.on('error', () => undefined);
    cleanups.push(() => pool.end());
    unitOfWork = async (select) => {
      const client = await pool.connect();
      try {
        await client.query(opening);
        // A named statement, as the real routes' selects are (`preparedStatement`): parsed once per connection.
        const { rows } = await client.query({ name: select.name, text: select.sql, values: select.params });
        await client.query('commit');
        return rows;
      } finally {
        client.release();
      }
    };
  } else {
    const pglite = database.pglite!;
    const wire = protocol.serialize;
    const run = (message: Uint8Array) => pglite.execProtocolStream(message, { syncToFs: false });
    unitOfWork = (select) =>
      pglite.runExclusive(async () => {
        await run(wire.query(opening));
        const messages = await run(
          Buffer.concat([
            wire.parse({ text: select.sql }),
            wire.bind({ values: select.params as string[] }),
            wire.describe({ type: 'P' }),
            wire.execute({}),
            wire.sync(),
          ]),
        );
        await run(wire.query('commit'));
        return parse.parseResults(messages, pglite.parsers)[0]!.rows;
      });
  }
  const app = Fastify();
  for (const [path, select] of Object.entries(selects)) {
    const named = { name: path.replaceAll('/', '_'), ...select };
    app.get(path, async () => ({ success: true, data: await unitOfWork(named) }));
  }
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
