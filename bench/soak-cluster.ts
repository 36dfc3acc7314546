// The soak's deployment: a fresh Postgres database and the real server (`main.ts` through tsx) as two API processes
// and two workers on it, as docs/operations.md "Deploy with Docker" runs them. The first API process hosts the Meta
// sandbox: the public address (the consent screen) and the workers' INTERNAL_URL are its.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, start, until } from '../apps/server/src/test/processes.ts';

const MAIN = fileURLToPath(new URL('../apps/server/src/main.ts', import.meta.url));
/** How long the soak waits for a process or a state before it gives up. */
export const SOAK_WAIT_MS = 60_000;

export interface ServerProcess {
  name: string;
  role: 'api' | 'worker';
  child: ChildProcess;
  /** Where its probes answer (an API's port, a worker's HEALTH_PORT). */
  probe: string;
  output: string[];
  exited: Promise<number | null>;
}

export interface Cluster {
  databaseUrl: string;
  /** The API processes' base addresses; the first hosts the sandbox. */
  apis: string[];
  processes: ServerProcess[];
  /** SIGTERM to every process; their exit codes (0 is a clean stop). */
  stop(): Promise<Record<string, number | null>>;
  /** Drops the database and the data directories. */
  remove(): Promise<void>;
}

/** The server of TEST_DATABASE_URL or DATABASE_URL (the local one by default), at its maintenance database. */
function serverUrl(): string {
  const url = new URL(
    process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  url.pathname = '/postgres';
  return url.toString();
}

/**
 * SOAK_DIAGNOSE_MS: the server's log gets the plan of every statement on the soak's database slower than this (the
 * `auto_explain` module, nested statements too) and every lock wait over 10 ms, so a slow minute can be told apart
 * from a slow statement or a wait. Settings of this one database only, taken by the connections opened after them.
 */
async function diagnose(name: string, ms: number): Promise<void> {
  if (!Number.isSafeInteger(ms)) throw new Error('SOAK_DIAGNOSE_MS must be a whole number of milliseconds');
  for (const setting of [
    `session_preload_libraries = 'auto_explain'`,
    `auto_explain.log_min_duration = '${ms}ms'`,
    'auto_explain.log_nested_statements = on',
    'log_lock_waits = on',
    `deadlock_timeout = '10ms'`,
  ])
    await admin(`alter database ${name} set ${setting}`);
  console.log(`diagnostics: statements over ${ms} ms and lock waits over 10 ms of ${name} go to the server's log`);
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A server process of the soak, from the sources through tsx (as a deployment without the bundle runs it). */
function startProcess(name: string, role: 'api' | 'worker', probe: string, env: Record<string, string>): ServerProcess {
  return { name, role, probe, ...start({ ROLE: role, ...env }, { args: ['--import', 'tsx', MAIN], from: 'sources' }) };
}

const ready = (base: string) => async () => ((await fetch(`${base}/api/ready`)).ok ? true : undefined);

/** A fresh database and the four processes on it, each ready. */
export async function startCluster(): Promise<Cluster> {
  const name = `adpilot_soak_${randomBytes(5).toString('hex')}`;
  await admin(`create database ${name}`);
  const diagnoseMs = Number(process.env.SOAK_DIAGNOSE_MS ?? 0);
  if (diagnoseMs > 0) await diagnose(name, diagnoseMs);
  const databaseUrl = new URL(serverUrl());
  databaseUrl.pathname = `/${name}`;
  const root = mkdtempSync(join(tmpdir(), 'adpilot-soak-'));
  // One sandbox secret for all: the workers sign the Graph calls the first API process's sandbox checks.
  const secret = `${randomBytes(36).toString('base64url')}\n`;
  const dataDir = (process: string) => {
    const dir = join(root, process);
    mkdirSync(dir);
    writeFileSync(join(dir, 'sandbox-secret'), secret, { mode: 0o600 });
    return dir;
  };
  const [api1, api2, probe1, probe2] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const apis = [`http://127.0.0.1:${api1}`, `http://127.0.0.1:${api2}`];
  // Diagnosing: each API process's own figures (request durations by route, event-loop delay) at /api/metrics.
  const metricsToken = diagnoseMs > 0 ? randomBytes(24).toString('hex') : undefined;
  if (metricsToken) {
    writeFileSync(join(root, 'metrics-token'), metricsToken, { mode: 0o600 });
    console.log(
      `diagnostics: ${apis.map((api) => `${api}/api/metrics`).join(' ')}, bearer in ${join(root, 'metrics-token')}`,
    );
  }
  const common = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl.toString(),
    DATABASE_POOL_SIZE: '10',
    APP_SECRET: randomBytes(48).toString('base64'),
    PUBLIC_URL: apis[0]!,
    INTERNAL_URL: apis[0]!,
    WEB_DIST_DIR: '/nonexistent',
    // One client drives every user from one address: the per-address flood limit would measure itself.
    RATE_LIMIT_MAX: '0',
    REGISTRATION_LIMIT_PER_HOUR: '0',
    ...(metricsToken ? { METRICS_TOKEN: metricsToken } : {}),
  };
  const processes: ServerProcess[] = [];
  const cluster: Cluster = {
    databaseUrl: databaseUrl.toString(),
    apis,
    processes,
    async stop() {
      const codes: Record<string, number | null> = {};
      for (const running of processes) if (running.child.exitCode === null) running.child.kill('SIGTERM');
      for (const running of processes) codes[running.name] = await running.exited;
      return codes;
    },
    async remove() {
      for (const running of processes) if (running.child.exitCode === null) running.child.kill('SIGKILL');
      await Promise.all(processes.map((running) => running.exited));
      await admin(`drop database if exists ${name} with (force)`);
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    // Every process migrates at its start: the first one alone, the others find nothing to do.
    processes.push(
      startProcess('api-1', 'api', apis[0]!, { ...common, PORT: String(api1), DATA_DIR: dataDir('api-1') }),
    );
    await until(ready(apis[0]!), 'api-1 to be ready', SOAK_WAIT_MS);
    processes.push(
      startProcess('api-2', 'api', apis[1]!, { ...common, PORT: String(api2), DATA_DIR: dataDir('api-2') }),
      ...[probe1, probe2].map((port, index) =>
        startProcess(`worker-${index + 1}`, 'worker', `http://127.0.0.1:${port}`, {
          ...common,
          PORT: '0',
          HEALTH_PORT: String(port),
          DATA_DIR: dataDir(`worker-${index + 1}`),
        }),
      ),
    );
    await Promise.all(
      processes.map((running) => until(ready(running.probe), `${running.name} to be ready`, SOAK_WAIT_MS)),
    );
  } catch (error) {
    for (const running of processes) console.error(`--- ${running.name}\n${running.output.join('')}`);
    await cluster.remove();
    throw error;
  }
  return cluster;
}

/** The resident set size of a process in MB (VmRSS in /proc/<pid>/status), or undefined once it is gone. */
export function rssMb(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time a process has used so far in seconds (utime + stime in /proc/<pid>/stat, at 100 ticks a second). */
export function cpuSeconds(pid: number | undefined): number {
  try {
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Jobs left behind: due or running for over a minute (`pgboss.job` is the parent of every queue's partition). */
export async function jobsLeftBehind(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; state: string; count: string }>(`
      select name, state::text, count(*)::text as count from pgboss.job
      where (state in ('created', 'retry') and start_after < now() - interval '1 minute')
         or (state = 'active' and started_on < now() - interval '1 minute')
      group by name, state order by name, state`);
    const totals = await client.query<{ state: string; count: string }>(
      `select state::text, count(*)::text as count from pgboss.job group by state order by state`,
    );
    return {
      stuck: rows.map((row) => ({ ...row, count: Number(row.count) })),
      byState: Object.fromEntries(totals.rows.map((row) => [row.state, Number(row.count)])),
    };
  } finally {
    await client.end();
  }
}
