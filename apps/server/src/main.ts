import { openDatabase } from '@adpilot/db';
import pino from 'pino';
import { buildApp, buildMetricsServer } from './app.ts';
import { resolveAppSecret } from './config/app-secret.ts';
import { databaseTarget, loadConfig } from './config/env.ts';
import { createContext } from './context.ts';
import { logOptions } from './lib/redact.ts';

/** Boots one process in its role: `all` (API + worker, the default), `api` or `worker`. */
async function main(): Promise<void> {
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
  const metricsServer =
    config.role === 'worker' && config.metricsPort !== undefined ? await buildMetricsServer(ctx) : undefined;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    try {
      await metricsServer?.close();
      await app.close();
      await ctx.jobs.stop();
      await database.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  if (config.role !== 'worker') {
    await app.listen({ port: config.port, host: config.host });
    // The one line a person starting the server looks for; request lines are debug (app.ts).
    app.log.info(
      `AdPilot is ready: open ${config.publicUrl} in a browser (database: ${database.kind}, Meta: ${config.meta.mode})`,
    );
  } else {
    await app.ready();
    if (metricsServer) await metricsServer.listen({ port: config.metricsPort, host: config.host });
  }
  // Jobs start once HTTP listens: on the embedded default the sync jobs call the sandbox this process serves.
  await ctx.jobs.start({ work: config.role !== 'api' });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
