// A worker process for the crash test: it runs the queued rule jobs against the given database and Meta sandbox,
// and kills itself with SIGKILL right after Meta accepted a write, before the ledger records it.
import { createDatabase } from '@adpilot/db';
import { MetaClient } from '@adpilot/meta';
import pino from 'pino';
import { loadConfig } from '../config/env.ts';
import { createContext } from '../context.ts';
import { CRASH_TIMING, type CrashWorkerArgs } from './rule-worker.shared.ts';

const args = JSON.parse(process.argv[2] ?? '{}') as CrashWorkerArgs;
const database = createDatabase(args.databaseUrl ? { url: args.databaseUrl, poolSize: 4 } : { dataDir: args.dataDir });
const client = new MetaClient({
  graphBaseUrl: args.sandboxUrl,
  dialogBaseUrl: args.sandboxUrl,
  appId: args.appId,
  appSecret: args.appSecret,
  sleep: async () => undefined,
});
const ctx = createContext({
  config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000' }),
  database,
  appSecret: args.secret,
  log: pino({ level: 'silent' }),
  meta: {
    client: () => client,
    isSandbox: () => true,
    adsManagerUrl: (act, _isSandbox, holder) => (holder ? `${args.sandboxUrl}/adsmanager?act=${act}` : null),
    verifyApp: () => client.appAccessToken().then(() => undefined),
  },
  jobQueue: CRASH_TIMING.queue,
  rules: {
    ...CRASH_TIMING.rules,
    afterWrite: () => {
      process.kill(process.pid, 'SIGKILL');
    },
  },
});
await ctx.jobs.start({ work: true });
// Never reached when the job runs: the kill comes first. A worker that found nothing to do says so.
setTimeout(() => process.exit(3), 60_000);
