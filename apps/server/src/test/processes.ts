// The real server as separate processes, for the suites that run roles side by side on one Postgres database
// (process-roles.pg.test.ts, topology.pg.test.ts): free ports, starting and probing a process, waiting for a state.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCES = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(SOURCES, '../../..');
const BUNDLE = join(ROOT, 'apps/server/dist/main.js');

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** The newest modification time of the files a server bundle is built from (tests and test helpers aside). */
function newestSource(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'test') continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * How a process starts: the bundle `npm run build:e2e` writes in the first stage of `npm test` when it is newer than
 * every source it is built from (plain JavaScript starts in a fraction of the time tsx takes), else the sources
 * through tsx, so an edit is never tested through a stale bundle.
 */
export function serverEntry(): { args: string[]; from: 'bundle' | 'sources' } {
  if (existsSync(BUNDLE)) {
    const built = statSync(BUNDLE).mtimeMs;
    const folders = [
      SOURCES,
      ...readdirSync(join(ROOT, 'packages')).map((name) => join(ROOT, 'packages', name, 'src')),
    ];
    if (folders.every((folder) => !existsSync(folder) || newestSource(folder) < built))
      return { args: [BUNDLE], from: 'bundle' };
  }
  return { args: ['--import', 'tsx', join(SOURCES, 'main.ts')], from: 'sources' };
}

/**
 * What every process of a suite on one database starts with: the database, the secret, one data folder and the
 * public address; each suite adds its own. The folder holds one sandbox secret made before any process starts, so
 * the workers sign the Graph calls the sandbox of the API at `publicUrl` checks.
 */
export function sharedEnv(options: {
  databaseUrl: string;
  appSecret: string;
  publicUrl: string;
  folderPrefix: string;
}): Record<string, string> & { DATA_DIR: string } {
  const dataDir = mkdtempSync(join(tmpdir(), options.folderPrefix));
  writeFileSync(join(dataDir, 'sandbox-secret'), `${'s'.repeat(48)}\n`, { mode: 0o600 });
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: options.databaseUrl,
    DATABASE_POOL_SIZE: '4',
    APP_SECRET: options.appSecret,
    DATA_DIR: dataDir,
    PUBLIC_URL: options.publicUrl,
    WEB_DIST_DIR: '/nonexistent',
    RATE_LIMIT_MAX: '0',
    REGISTRATION_LIMIT_PER_HOUR: '0',
    SANDBOX_CONTROL_ROUTES: 'true',
  };
}

export interface Running {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/** The real server in its own process, its output kept for a failure's message. */
export function start(env: Record<string, string>, entry = serverEntry()): Running {
  const child = spawn(process.execPath, entry.args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, output, exited };
}

/** Kills what is still running (a test's cleanup). */
export function killAll(processes: readonly (Running | undefined)[]): void {
  for (const running of processes) if (running && running.child.exitCode === null) running.child.kill('SIGKILL');
}

/** Polls `probe` until it answers a value, for at most `timeoutMs`. */
export async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Whether anything accepts a connection on the port (a refused connection is the answer `false`). */
export const listening = (port: number) =>
  fetch(`http://127.0.0.1:${port}/api/health`).then(
    () => true,
    () => false,
  );

/** Until the process on the port answers its readiness probe with 200; fails at once if the process exits. */
export function ready(port: number, what: string, running?: Running, timeoutMs = 40_000): Promise<true> {
  const answered = until(
    async () => ((await fetch(`http://127.0.0.1:${port}/api/ready`)).ok ? true : undefined),
    what,
    timeoutMs,
  );
  if (!running) return answered;
  const died = running.exited.then((code) => {
    throw new Error(`${what}: the process exited (${code}) first: ${running.output.join('')}`);
  });
  return Promise.race([answered, died]);
}
