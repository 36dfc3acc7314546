// One API process of the two-process stream test: the real app on the given Postgres, listening on a free port,
// which it prints as `PORT <n>` once it listens.
import { createDatabase } from '@adpilot/db';
import pino from 'pino';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config/env.ts';
import { createContext } from '../context.ts';

const args = JSON.parse(process.argv[2] ?? '{}') as { databaseUrl: string; secret: string };
const database = createDatabase({ url: args.databaseUrl, poolSize: 4 });
const ctx = createContext({
  config: loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ROLE: 'api',
    RATE_LIMIT_MAX: '0',
    REGISTRATION_LIMIT_PER_HOUR: '0',
    WEB_DIST_DIR: '/nonexistent',
    PUBLIC_URL: 'http://localhost:3000',
  }),
  database,
  appSecret: args.secret,
  log: pino({ level: 'silent' }),
});
const app = await buildApp(ctx, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`PORT ${typeof address === 'object' && address ? address.port : 0}\n`);
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .finally(() => process.exit(0));
});
