// API throughput against a bare Fastify route on the same machine: GET /api/ad-accounts (an empty list) and
// GET /api/auth/me, authenticated, on PGlite and on Postgres (BENCH_DATABASE_URL, default the local server).
// Each server runs in its own process; autocannon runs here. The `-floor` targets are a bare route running one unit
// of work straight on the driver: what the database alone allows. All five run at once and are measured in turns
// (BENCH_ROUNDS rounds of BENCH_SECONDS per route and server); the figures are the mean rate and the median
// p50 and p99 of the turns. Prints one line of figures.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

// Every server runs for the whole bench and is measured in short turns, round after round, so a change in the
// machine's load (it is shared) falls on the real routes and their floor alike rather than on whichever ran last.
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 20;
const ROUTES = ['/api/ad-accounts', '/api/auth/me'] as const;
const target = fileURLToPath(new URL('./api-target.ts', import.meta.url));

interface Started {
  port: number;
  token?: string;
}

async function start(mode: string): Promise<{ child: ChildProcess; started: Started }> {
  const child = spawn(process.execPath, ['--import', 'tsx', target, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const started = await new Promise<Started>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as Started));
    child.once('exit', (code) => reject(new Error(`${mode} server exited (${code})`)));
  });
  return { child, started };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

async function measure(started: Started, path: string, duration: number): Promise<Figures> {
  const url = `http://127.0.0.1:${started.port}${path}`;
  const headers = started.token ? { authorization: `Bearer ${started.token}` } : {};
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration });
  if (result.non2xx > 0) throw new Error(`${path}: ${result.non2xx} answers were not 2xx`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const MODES = ['bare', 'pglite-floor', 'pglite', 'postgres-floor', 'postgres'];
const servers = new Map<string, { child: ChildProcess; started: Started }>();
const turns = new Map<string, Figures[]>();
try {
  for (const mode of MODES) servers.set(mode, await start(mode));
  // A short warm-up, so JIT and connection pools are in their steady state.
  for (const { started } of servers.values()) for (const path of ROUTES) await measure(started, path, 2);
  for (let round = 0; round < ROUNDS; round++) {
    for (const path of ROUTES) {
      for (const mode of MODES) {
        const key = `${mode} ${path}`;
        turns.set(key, [...(turns.get(key) ?? []), await measure(servers.get(mode)!.started, path, DURATION_SECONDS)]);
      }
    }
  }
} finally {
  for (const { child } of servers.values()) await stop(child);
}
const results = new Map<string, Figures>();
for (const [key, figures] of turns) {
  results.set(key, {
    rps: figures.reduce((sum, f) => sum + f.rps, 0) / figures.length,
    p50: median(figures.map((f) => f.p50)),
    p99: median(figures.map((f) => f.p99)),
  });
}

const parts: string[] = [];
for (const mode of ['pglite', 'postgres']) {
  for (const path of ROUTES) {
    const figures = results.get(`${mode} ${path}`)!;
    const bare = results.get(`bare ${path}`)!;
    const ratio = (100 * figures.rps) / bare.rps;
    const floor = results.get(`${mode}-floor ${path}`)!;
    parts.push(
      `${mode} ${path} ${Math.round(figures.rps)} req/s p50 ${figures.p50} ms p99 ${figures.p99} ms (${ratio.toFixed(1)} % of bare ${Math.round(bare.rps)}; ${Math.round((100 * figures.rps) / floor.rps)} % of its floor ${Math.round(floor.rps)})`,
    );
  }
}
console.log(`api (${ROUNDS} rounds of ${DURATION_SECONDS} s, ${CONNECTIONS} connections): ${parts.join('; ')}`);
