import { openDatabase } from '@adpilot/db';
import pino from 'pino';
import { buildApp } from './app.ts';
import { resolveAppSecret } from './config/app-secret.ts';
import { databaseTarget, loadConfig } from './config/env.ts';
import { createContext } from './context.ts';
import { readableLogs, readableLogStream } from './lib/log-format.ts';
import { logOptions } from './lib/redact.ts';

/** Boots one process in its role: `all` (API + worker, the default), `api` or `worker`. */
async function main(): Promise<void> {
  // The data folder, its secrets and whatever the server writes are the service user's alone, whatever the umask it
  // was started with (ADR 0095).
  process.umask(0o077);
  const config = loadConfig();
  // A person at a terminal reads lines; a pipe (a container's log, a collector) gets JSON (ADR 0136).
  const terminal = Boolean(process.stdout.isTTY);
  const logStream = readableLogs(config.logFormat, terminal)
    ? readableLogStream(process.stdout, { colours: terminal })
    : undefined;
  const log = logStream ? pino(logOptions(config.logLevel), logStream) : pino(logOptions(config.logLevel));
  const { secret, generated } = resolveAppSecret(config.appSecret, config.dataDir);
  if (generated)
    log.warn(
      { dataDir: config.dataDir },
      'generated a new application secret in DATA_DIR (set APP_SECRET to share one between processes)',
    );

  // Migrates, then proves a tenant query works: a database that cannot serve one stops the start here.
  const database = await openDatabase({ ...databaseTarget(config), poolSize: config.databasePoolSize });
  const ctx = createContext({ config, database, appSecret: secret, log });
  const app = await buildApp(ctx, { logStream });

  // A graceful stop (ADR 0083): the API stops accepting, finishes the requests in flight and ends its live streams
  // with a `retry:` hint; the worker takes no new job and lets the running ones finish. Whatever is still going when
  // SHUTDOWN_TIMEOUT_SECONDS have passed is cut: an unfinished job is failed and retried by its policy (or, if the
  // process is gone first, handed out again when its lease expires).
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, role: config.role }, 'shutting down: finishing requests and running jobs');
    const force = setTimeout(() => {
      log.error('shutdown took too long: exiting with work unfinished');
      process.exit(1);
    }, config.shutdownTimeoutMs + 2000).unref();
    let code = 0;
    try {
      await app.close();
      await ctx.jobs.stop(config.shutdownTimeoutMs);
      await database.close();
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      code = 1;
    } finally {
      clearTimeout(force);
      process.exit(code);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.ready();
  if (config.role === 'worker') {
    // No API; the probes and the metrics only, on their own port, when asked for (a health check, a scrape).
    if (config.healthPort) await listenQuietly(app, config.healthPort, config.host);
  } else {
    await listenQuietly(app, config.port, config.host);
  }
  // Jobs start once HTTP listens: on the embedded default the sync jobs call the sandbox this process serves.
  await ctx.jobs.start({ work: config.role !== 'api' });
  // The one line a person starting the server looks for: where it listens; request lines are debug (app.ts).
  if (config.role === 'worker') {
    const probes = config.healthPort ? ` (probes on ${config.host}:${config.healthPort})` : '';
    log.info(`AdPilot worker is running jobs${probes}`);
  } else {
    log.info(
      `AdPilot is ready: open ${config.publicUrl} in a browser (listening on ${config.host}:${config.port}, ` +
        `database: ${database.kind}, Meta: ${config.meta.mode})`,
    );
  }
}

/**
 * Fastify logs a "Server listening at" line per network interface at info, several on 0.0.0.0; the ready line says
 * where once, so those are left out (a level stricter than warn is left as it is).
 */
async function listenQuietly(app: Awaited<ReturnType<typeof buildApp>>, port: number, host: string): Promise<void> {
  const level = app.log.level;
  const { values } = pino.levels;
  if ((values[level] ?? Infinity) < (values.warn ?? 40)) app.log.level = 'warn';
  try {
    await app.listen({ port, host });
  } finally {
    app.log.level = level;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
