// The activity log on Postgres (BENCH_DATABASE_URL, default the local server): list and stats latency (p50/p99)
// over 1,000,000 entries of 1,000 users, and the live stream's delivery latency of one entry to 1,000 concurrent
// SSE clients. The API runs in its own process (the real app); requests are sent one at a time for the latencies.
// Prints one line of figures.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@adpilot/db';
import pg from 'pg';

const USERS = 1_000;
const PER_USER = 1_000;
const MEASURED_USERS = 20;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const STREAMS = 1_000;
const ENTRIES = 5;
const SECRET = randomBytes(32).toString('hex');
const child = fileURLToPath(new URL('../apps/server/src/test/activity-server.child.ts', import.meta.url));

const server = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `adpilot_bench_${randomBytes(5).toString('hex')}`;
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`create database ${name}`);
await admin.end();
const target = new URL(server);
target.pathname = `/${name}`;
const url = target.toString();

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const ms = (value: number) => value.toFixed(1);

let api: ChildProcess | undefined;
try {
  const handle = await openDatabase({ url, poolSize: 2 });
  await handle.close();

  api = spawn(process.execPath, ['--import', 'tsx', child, JSON.stringify({ databaseUrl: url, secret: SECRET })], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    api!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /PORT (\d+)/.exec(out)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    api!.once('exit', (code) => reject(new Error(`api exited (${code})`)));
  });

  // Users measured through the API are registered for real; the others exist only as rows.
  const sessions: { id: string; token: string }[] = [];
  for (let i = 0; i < MEASURED_USERS; i += 1) {
    const response = await fetch(`${origin}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', email: `bench-${i}-${name}@example.com`, password: 'Bench-Pass1' }),
    });
    const { data } = (await response.json()) as { data: { token: string; user: { id: string } } };
    sessions.push({ id: data.user.id, token: data.token });
  }

  const owner = new pg.Client({ connectionString: url });
  owner.on('error', () => undefined);
  await owner.connect();
  const seedStarted = performance.now();
  await owner.query(`insert into users (email, name, password_hash)
    select 'row-' || g || '@example.com', 'Row user', 'x' from generate_series(1, ${USERS - MEASURED_USERS}) g`);
  // Seeded with the numbering done here (the trigger's work, in bulk), then the counters set to match.
  await owner.query('alter table activity_logs disable trigger user');
  await owner.query(`with ids as (
      select id as user_id, gen_random_uuid() as a1, gen_random_uuid() as a2, gen_random_uuid() as r from users)
    insert into activity_logs
      (user_id, seq, level, category, description, rule_id, ad_account_id, metadata, created_at)
    select ids.user_id, g,
      (array['info','success','warning','error'])[1 + g % 4],
      (array['rule_action','rule_run','sync','connection','note'])[1 + g % 5],
      'Rule "Stop loss ' || (g % 7) || '" applied pause on ad "Summer sale ' || g || '"',
      case when g % 5 = 0 then ids.r end,
      case when g % 2 = 0 then ids.a1 else ids.a2 end,
      jsonb_build_object('code', 'rule_action_applied',
        'params', jsonb_build_object('ruleName', 'Stop loss', 'action', 'pause', 'target', 'Summer sale ' || g)),
      now() - make_interval(mins => ${PER_USER} - g)
    from ids cross join generate_series(1, ${PER_USER}) g`);
  await owner.query('alter table activity_logs enable trigger user');
  await owner.query(`insert into activity_log_counters (user_id, last_seq)
    select user_id, max(seq) from activity_logs group by user_id`);
  await owner.query('analyze');
  const [{ count }] = (await owner.query('select count(*)::int as count from activity_logs')).rows as [
    { count: number },
  ];
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  async function latency(path: (user: { id: string }) => string): Promise<{ p50: number; p99: number }> {
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i += 1) {
      const session = sessions[i % sessions.length]!;
      const started = performance.now();
      const response = await fetch(`${origin}${path(session)}`, {
        headers: { authorization: `Bearer ${session.token}` },
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path(session)}: ${response.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
  }

  // Warm-up, then the four reads the Activity page and the dashboard make.
  await latency(() => '/api/logs');
  const list = await latency(() => '/api/logs?page=1&limit=50');
  const deep = await latency(() => '/api/logs?page=10&limit=50');
  const filtered = await latency(() => '/api/logs?level=error&type=rule_action&search=sale&limit=50');
  const stats = await latency(() => '/api/logs/stats?tz=Asia/Bangkok');

  // 1,000 streams of one user; one entry written; each stream's time to receive it.
  const streamer = sessions[0]!;
  const received: number[][] = Array.from({ length: ENTRIES }, () => []);
  let sentAt = 0;
  let entry = -1;
  const sockets: http.ClientRequest[] = [];
  let open = 0;
  await new Promise<void>((resolve, reject) => {
    for (let i = 0; i < STREAMS; i += 1) {
      const request = http.get(
        `${origin}/api/logs/stream?token=${streamer.token}`,
        { agent: false, headers: { accept: 'text/event-stream' } },
        (response) => {
          if (response.statusCode !== 200) return reject(new Error(`stream ${response.statusCode}`));
          open += 1;
          if (open === STREAMS) resolve();
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            if (chunk.includes('\ndata: ') || chunk.startsWith('data: ') || chunk.includes('id: '))
              received[entry]?.push(performance.now() - sentAt);
          });
        },
      );
      request.on('error', reject);
      sockets.push(request);
    }
  });
  // Let the streams subscribe before the entries are written.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  for (entry = 0; entry < ENTRIES; entry += 1) {
    sentAt = performance.now();
    await fetch(`${origin}/api/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${streamer.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ description: `bench entry ${entry}` }),
    });
    const until = Date.now() + 10_000;
    while (received[entry]!.length < STREAMS && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
  }
  for (const socket of sockets) socket.destroy();
  const deliveries = received.flat().sort((a, b) => a - b);
  const delivered = received.map((times) => times.length);
  await owner.end();

  console.log(
    `activity-logs: ${count.toLocaleString('en-US')} entries of ${USERS} users on Postgres (seeded in ${seedSeconds.toFixed(0)} s); ` +
      `list page 1 p50 ${ms(list.p50)} ms p99 ${ms(list.p99)} ms; page 10 p50 ${ms(deep.p50)} ms p99 ${ms(deep.p99)} ms; ` +
      `filtered (level+type+search) p50 ${ms(filtered.p50)} ms p99 ${ms(filtered.p99)} ms; ` +
      `stats p50 ${ms(stats.p50)} ms p99 ${ms(stats.p99)} ms (${REQUESTS} requests each, one at a time, over HTTP); ` +
      `SSE: ${STREAMS} streams of one user, ${ENTRIES} entries, delivered ${delivered.join('/')}, ` +
      `delivery p50 ${ms(percentile(deliveries, 0.5))} ms p99 ${ms(percentile(deliveries, 0.99))} ms max ${ms(deliveries.at(-1) ?? 0)} ms`,
  );
} catch (error) {
  console.error('activity-logs bench failed:', error);
  process.exitCode = 1;
} finally {
  api?.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  const cleanup = new pg.Client({ connectionString: server });
  await cleanup.connect();
  await cleanup.query(`drop database if exists ${name} with (force)`);
  await cleanup.end();
}
