import { openDatabase } from '@adpilot/db';
import pino from 'pino';
import { buildApp } from './app.ts';
import { resolveAppSecret } from './config/app-secret.ts';
import { databaseTarget, loadConfig } from './config/env.ts';
import { createContext } from './context.ts';
import { logOptions } from './lib/redact.ts';

/** Boots one process in its role: `all` (API + worker, the default), `api` or `worker`. */
async function main(): Promise<void> {
  // The data folder, its secrets and whatever the server writes are the service user's alone, whatever the umask it
  // was started with (ADR 0095).
  process.umask(0o077);
  const config = loadConfig();
  const log = pino(logOptions(config.logLevel));
  const { secret, generated } = resolveAppSecret(config.appSecret, config.dataDir);
  if (generated)
    log.warn(
      { dataDir: config.dataDir },
      'generated a new application secret in DATA_DIR (set APP_SECRET to share one between processes)',
    );

  // Migrates, then proves a tenant query works: a database that cannot serve one stops the start here.
  const database = await openDatabase({ ...databaseTarget(config), poolSize: config.databasePoolSize });
  const ctx = createContext({ config, database, appSecret: secret, log });
  const app = await buildApp(ctx);

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

  if (config.role === 'worker') {
    // No API; the probes and the metrics only, on their own port, when asked for (a health check, a scrape).
    if (config.healthPort) await app.listen({ port: config.healthPort, host: config.host });
    else await app.ready();
  } else {
    await app.listen({ port: config.port, host: config.host });
    // The one line a person starting the server looks for; request lines are debug (app.ts).
    app.log.info(
      `AdPilot is ready: open ${config.publicUrl} in a browser (database: ${database.kind}, Meta: ${config.meta.mode})`,
    );
  }
  // Jobs start once HTTP listens: on the embedded default the sync jobs call the sandbox this process serves.
  await ctx.jobs.start({ work: config.role !== 'api' });
  if (config.role === 'worker') log.info('AdPilot worker is running jobs');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
