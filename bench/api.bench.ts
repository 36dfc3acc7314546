// API throughput against a bare Fastify route on the same machine: GET /api/ad-accounts (an empty list) and
// GET /api/auth/me, authenticated, on PGlite and on Postgres (BENCH_DATABASE_URL, default the local server).
// Each server runs in its own process; autocannon runs here. The `-floor` targets are a bare route running one unit
// of work straight on the driver: what the database alone allows. Prints one line of figures.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
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

async function measure(started: Started, path: string): Promise<Figures> {
  const url = `http://127.0.0.1:${started.port}${path}`;
  const headers = started.token ? { authorization: `Bearer ${started.token}` } : {};
  // A short warm-up, so JIT and connection pools are in their steady state.
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_SECONDS });
  if (result.non2xx > 0) throw new Error(`${path}: ${result.non2xx} answers were not 2xx`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const results = new Map<string, Figures>();
for (const mode of ['bare', 'pglite-floor', 'pglite', 'postgres-floor', 'postgres']) {
  const { child, started } = await start(mode);
  try {
    for (const path of ROUTES) results.set(`${mode} ${path}`, await measure(started, path));
  } finally {
    await stop(child);
  }
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
console.log(`api: ${parts.join('; ')}`);
