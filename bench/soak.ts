// `npm run test:soak`: mixed load for SOAK_MINUTES (default 10) on the real server deployed as two API processes and
// two workers on one fresh Postgres database (bench/soak-cluster.ts). A few users on the enterprise plan, the
// sandbox's accounts connected, two rules each checked every 5 minutes by the real schedule; reads, writes and live
// streams spread over both API processes at SOAK_RATE requests a second (default 10). Prints requests and errors by
// route, p50/p99 per route per minute, each process's RSS every 10 s, the jobs left behind and the rules' runs, and
// exits 1 when any target is missed (README of bench/ and docs/quality.md).
import type { CreateRuleRequest } from '@adpilot/contracts';
import { loadavg } from 'node:os';
import { answerConsent } from '../apps/server/src/test/meta-sandbox.ts';
import { buildRule, buildScaleRule } from '../apps/server/src/test/rule-factories.ts';
import { openLiveStream, type LiveStream } from '../apps/server/src/test/live-stream.ts';
import { buildUser } from '../apps/server/src/test/test-app.ts';
import { until } from '../apps/server/src/test/processes.ts';
import { cpuSeconds, jobsLeftBehind, rssMb, SOAK_WAIT_MS, startCluster, type Cluster } from './soak-cluster.ts';
import {
  machineTable,
  minuteTable,
  routeTable,
  rssTable,
  stabilityTable,
  type MachineSample,
  type RssSeries,
  type Sample,
} from './soak-figures.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const RATE = Number(process.env.SOAK_RATE ?? 10);
const USERS = Number(process.env.SOAK_USERS ?? 4);
const WARM_UP_SECONDS = Math.min(120, (MINUTES * 60) / 4);
// "p99 per route stable" (soak-figures.ts stabilityTable): the late minutes' p99 at most 2 times the early minutes',
// or at most 50 ms.
const STABILITY = {
  tolerance: Number(process.env.SOAK_P99_TOLERANCE ?? 1),
  floorMs: Number(process.env.SOAK_P99_FLOOR_MS ?? 50),
};
const RULE_MINUTES = 5;

interface User {
  name: string;
  token: string;
  auth: Record<string, string>;
  refreshToken: string;
  /** The refresh under way: a refresh token is spent once, so the user's refreshes never overlap. */
  refreshing?: Promise<void>;
  /** Times the user's access token was refreshed. */
  refreshes: number;
  /** The rules checked every 5 minutes, and when each was switched on. */
  scheduled: { id: string; activatedAt: number }[];
  /** Inactive rules the load creates, edits and deletes (newest last). */
  scratch: string[];
  notes: string[];
  streams: LiveStream[];
}

type Answer = { status: number; body: { data?: unknown; error?: unknown } };

async function call(base: string, method: string, path: string, auth: Record<string, string>, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} } as Answer;
}

async function expectOk<T>(answer: Promise<Answer>, what: string): Promise<T> {
  const { status, body } = await answer;
  if (status >= 300) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body.data as T;
}

/** A user on the enterprise plan (rules every 5 minutes) with the sandbox's accounts connected and synced. */
async function setUpUser(cluster: Cluster, index: number): Promise<User> {
  const [api] = cluster.apis;
  const registered = await expectOk<{ token: string; refreshToken: string }>(
    call(api!, 'POST', '/api/auth/register', {}, buildUser({ name: `Soak ${index}` })),
    'register',
  );
  const auth = { authorization: `Bearer ${registered.token}` };
  await expectOk(call(api!, 'POST', '/api/subscription/upgrade', auth, { planId: 'enterprise' }), 'upgrade');
  // The consent screen is the first API process's sandbox: the connection goes through it.
  const { authUrl } = await expectOk<{ authUrl: string }>(
    call(api!, 'GET', '/api/ad-accounts/facebook/auth-url', auth),
    'auth url',
  );
  const back = await answerConsent(authUrl);
  const connected = await expectOk<{ connectedAccounts: { id: string }[] }>(
    call(api!, 'POST', '/api/ad-accounts/facebook/callback', auth, {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
    }),
    'connect',
  );
  if (connected.connectedAccounts.length === 0) throw new Error('no sandbox account connected');
  await until(
    async () => {
      const accounts = await expectOk<{ sync_status: string; last_sync: string | null }[]>(
        call(api!, 'GET', '/api/ad-accounts', auth),
        'accounts',
      );
      return accounts.every((a) => a.sync_status === 'idle' && a.last_sync) ? true : undefined;
    },
    `user ${index}'s accounts to sync`,
    SOAK_WAIT_MS,
  );
  const every5 = { isActive: true, schedule: { everyMinutes: RULE_MINUTES } } as const;
  const scheduled = [];
  for (const rule of [buildRule(every5), { ...buildScaleRule(), ...every5 }]) {
    const created = await expectOk<{ id: string }>(call(api!, 'POST', '/api/rules', auth, rule), 'rule');
    scheduled.push({ id: created.id, activatedAt: Date.now() });
  }
  return {
    name: `user-${index}`,
    token: registered.token,
    auth,
    refreshToken: registered.refreshToken,
    refreshes: 0,
    scheduled,
    scratch: [],
    notes: [],
    streams: [],
  };
}

/** A new access token for the user (the web client's refresh), one at a time. */
function refresh(cluster: Cluster, user: User): Promise<void> {
  user.refreshing ??= expectOk<{ token: string; refreshToken: string }>(
    call(cluster.apis[0]!, 'POST', '/api/auth/refresh', {}, { refreshToken: user.refreshToken }),
    'refresh',
  )
    .then((fresh) => {
      user.token = fresh.token;
      user.auth = { authorization: `Bearer ${fresh.token}` };
      user.refreshToken = fresh.refreshToken;
      user.refreshes += 1;
    })
    .finally(() => {
      user.refreshing = undefined;
    });
  return user.refreshing;
}

interface Operation {
  route: string;
  weight: number;
  /** The request for `user`, or undefined when it has nothing to act on yet. */
  request(user: User): { method: string; path: string; body?: unknown; expect: number } | undefined;
  /** What a success changes in the user's state. */
  after?(user: User, data: unknown, body: unknown): void;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
let sequence = 0;
const inactiveRule = (): CreateRuleRequest => buildRule({ name: `Soak scratch ${(sequence += 1)}` });

/** The mix: what a dashboard, the rules and activity pages and their editors ask for, in these proportions. */
const OPERATIONS: Operation[] = [
  { route: 'GET /api/reports/overview', weight: 3, request: () => get('/api/reports/overview?days=30') },
  { route: 'GET /api/rules', weight: 3, request: () => get('/api/rules') },
  { route: 'GET /api/logs', weight: 3, request: () => get('/api/logs?page=1&limit=20') },
  { route: 'GET /api/logs?search', weight: 2, request: () => get('/api/logs?search=soak%20note&limit=20') },
  { route: 'GET /api/logs/stats', weight: 1, request: () => get('/api/logs/stats') },
  {
    route: 'GET /api/reports',
    weight: 2,
    request: () => get(`/api/reports?from=${day(-29)}&to=${day(0)}&level=campaign`),
  },
  { route: 'GET /api/ad-accounts', weight: 1, request: () => get('/api/ad-accounts') },
  {
    route: 'GET /api/rules/:id/runs',
    weight: 1,
    request: (user) => get(`/api/rules/${user.scheduled[sequence % user.scheduled.length]!.id}/runs`),
  },
  {
    route: 'POST /api/logs',
    weight: 2,
    request: (user) => {
      const description = `Soak note ${user.name} #${(sequence += 1)}`;
      return { method: 'POST', path: '/api/logs', body: { description }, expect: 201 };
    },
    after: (user, _data, body) => user.notes.push((body as { description: string }).description),
  },
  {
    route: 'POST /api/rules',
    weight: 1,
    request: () => ({ method: 'POST', path: '/api/rules', body: inactiveRule(), expect: 201 }),
    after: (user, data) => user.scratch.push((data as { id: string }).id),
  },
  {
    route: 'PATCH /api/rules/:id',
    weight: 1,
    // Among the three newest: the deletes take the oldest, so an edit never races its rule's delete.
    request: (user) => {
      const id = user.scratch.at(-1 - (sequence % Math.min(3, user.scratch.length)));
      const body = { description: `Edited at ${new Date().toISOString()}` };
      return id ? { method: 'PATCH', path: `/api/rules/${id}`, body, expect: 200 } : undefined;
    },
  },
  {
    route: 'DELETE /api/rules/:id',
    weight: 1,
    request: (user) => {
      const id = user.scratch.length > 6 ? user.scratch.shift() : undefined;
      return id ? { method: 'DELETE', path: `/api/rules/${id}`, expect: 200 } : undefined;
    },
  },
];

function get(path: string) {
  return { method: 'GET', path, expect: 200 };
}

/** Weighted round robin: the same sequence every run. */
const schedule = OPERATIONS.flatMap((operation) => Array.from({ length: operation.weight }, () => operation));

async function main(): Promise<void> {
  console.log(`soak: ${MINUTES} min, ${RATE} requests/s over 2 API processes, 2 workers, ${USERS} users`);
  const cluster = await startCluster();
  const exitCodes: Record<string, number | null> = {};
  let failed = false;
  try {
    const users: User[] = [];
    for (let index = 1; index <= USERS; index += 1) users.push(await setUpUser(cluster, index));
    // Every user watches the activity log live on both API processes.
    // A stream the server ends (its access token expired) is reopened as the web app reopens it: the token refreshed
    // when nearly spent, resumed after the last entry received.
    for (const user of users) {
      for (const api of cluster.apis)
        user.streams.push(
          await openLiveStream(`${api}/api/logs/stream`, {
            token: () => user.token,
            refresh: () => refresh(cluster, user),
          }),
        );
    }
    console.log(`set up: ${users.length} users, ${users.length * 2} rules every ${RULE_MINUTES} min, streams open`);

    const samples: Sample[] = [];
    const rss: RssSeries[] = cluster.processes.map((running) => ({ name: running.name, samples: [] }));
    const startedAt = Date.now();
    const endsAt = startedAt + MINUTES * 60_000;
    const machine: MachineSample[] = [];
    const sampleRss = () => {
      const seconds = (Date.now() - startedAt) / 1000;
      cluster.processes.forEach((running, index) => {
        const mb = rssMb(running.child.pid);
        if (mb !== undefined) rss[index]!.samples.push([seconds, mb]);
      });
      const cpu = cluster.processes.reduce((sum, running) => sum + cpuSeconds(running.child.pid), 0);
      machine.push([seconds, loadavg()[0]!, cpu]);
    };
    sampleRss();
    const sampler = setInterval(sampleRss, 10_000);
    // Access tokens last 15 minutes: a long soak refreshes them as the web client does (its requests' token; each
    // stream refreshes its own when the server ends it at the expiry).
    const refresher = setInterval(() => {
      for (const user of users) void refresh(cluster, user).catch((error: unknown) => console.error(error));
    }, 10 * 60_000);

    const inFlight = new Set<Promise<void>>();
    let tick = 0;
    const fire = () => {
      const user = users[tick % users.length]!;
      const api = tick % 2;
      const operation = schedule[Math.floor(tick / users.length) % schedule.length]!;
      tick += 1;
      const request = operation.request(user);
      if (!request) return;
      const began = performance.now();
      const minute = Math.floor((Date.now() - startedAt) / 60_000);
      const done = call(cluster.apis[api]!, request.method, request.path, user.auth, request.body)
        .then(
          (answer) => {
            const error = answer.status !== request.expect;
            if (error)
              console.error(`${operation.route} on api-${api + 1}: ${answer.status} ${JSON.stringify(answer.body)}`);
            else operation.after?.(user, answer.body.data, request.body);
            return { status: answer.status, error };
          },
          (cause: unknown) => {
            console.error(`${operation.route} on api-${api + 1}: ${String(cause)}`);
            return { status: 0, error: true };
          },
        )
        .then(({ status, error }) => {
          samples.push({ route: operation.route, api, minute, ms: performance.now() - began, status, error });
        });
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    };
    // A steady rate: each request at its own time, whether or not the ones before have been answered.
    while (Date.now() < endsAt) {
      fire();
      const next = startedAt + tick * (1000 / RATE);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
    }
    await Promise.all(inFlight);
    const loadSeconds = (Date.now() - startedAt) / 1000;
    sampleRss();
    clearInterval(sampler);
    clearInterval(refresher);

    // Every note reached both of its user's streams (one written on the other API process arrives too).
    const expected = users.reduce((sum, user) => sum + user.notes.length * user.streams.length, 0);
    const delivered = () =>
      users.reduce(
        (sum, user) =>
          sum +
          user.streams.reduce(
            (inStream, stream) =>
              inStream + user.notes.filter((note) => stream.messages.some((m) => m.data.includes(note))).length,
            0,
          ),
        0,
      );
    await until(async () => (delivered() === expected ? true : undefined), 'the notes on the streams', 15_000).catch(
      () => undefined,
    );
    const streams = users.flatMap((user) => user.streams);
    const streamsDown = streams.filter((stream) => !stream.isOpen()).length;
    const reconnects = streams.reduce((sum, stream) => sum + stream.reconnects, 0);
    const reopenFailures = streams.flatMap((stream) => stream.failures);

    // Each rule ran in every 5-minute slot from the one it was switched on in to the last that had a minute's tick.
    const ruleLines: string[] = [];
    let missedSlots = 0;
    const lastTick = Date.now() - 90_000;
    for (const user of users) {
      for (const rule of user.scheduled) {
        const runs = await expectOk<{ trigger: string; slot: string; status: string }[]>(
          call(cluster.apis[0]!, 'GET', `/api/rules/${rule.id}/runs`, user.auth),
          'runs',
        );
        const slotStart = (slot: string) => {
          const every = /^m(\d+):(\d+)$/.exec(slot);
          return every ? Number(every[2]) * Number(every[1]) * 60_000 : Date.parse(slot);
        };
        const ran = new Map(runs.filter((r) => r.trigger === 'schedule').map((r) => [slotStart(r.slot), r.status]));
        const window = RULE_MINUTES * 60_000;
        const missing: string[] = [];
        for (let slot = Math.floor((rule.activatedAt + 60_000) / window) * window; slot <= lastTick; slot += window) {
          if (!ran.has(slot)) missing.push(new Date(slot).toISOString().slice(11, 16));
        }
        missedSlots += missing.length;
        const statuses = [...ran].map(([slot, status]) => `${new Date(slot).toISOString().slice(11, 16)} ${status}`);
        ruleLines.push(
          `  ${user.name} rule ${rule.id.slice(0, 8)}: ${ran.size} runs (${statuses.join(', ')})${missing.length ? `; MISSED ${missing.join(', ')}` : ''}`,
        );
      }
    }
    for (const stream of users.flatMap((user) => user.streams)) stream.close();

    const jobs = await jobsLeftBehind(cluster.databaseUrl);
    Object.assign(exitCodes, await cluster.stop());

    const routes = routeTable(samples, Math.floor(WARM_UP_SECONDS / 60));
    const stability = stabilityTable(samples, Math.floor(WARM_UP_SECONDS / 60), MINUTES, STABILITY);
    const memory = rssTable(rss, WARM_UP_SECONDS, loadSeconds);
    console.log(
      `\nrequests by route (${samples.length} in ${loadSeconds.toFixed(0)} s, target 0 errors; warm-up ${WARM_UP_SECONDS} s)`,
    );
    console.log(routes.text);
    console.log('\np50/p99 ms per route per minute');
    console.log(minuteTable(samples, MINUTES));
    console.log(
      `\np99 per route stable: the median of the late minutes' p99s at most ${1 + STABILITY.tolerance} times the ` +
        `early minutes', or at most ${STABILITY.floorMs} ms (${stability.windows})`,
    );
    console.log(stability.text);
    console.log('\nthe machine (2 cores shared with other work) per minute');
    console.log(machineTable(machine, MINUTES));
    console.log(`\nRSS every 10 s, growth from the minute after a ${WARM_UP_SECONDS} s warm-up to the last minute`);
    console.log(memory.text);
    for (const series of rss)
      console.log(`  ${series.name}: ${series.samples.map(([, mb]) => mb.toFixed(0)).join(' ')}`);
    console.log(
      `\nnotes on live streams: ${delivered()} of ${expected} deliveries; streams down at the end: ${streamsDown} of ` +
        `${streams.length}; reopened ${reconnects} times (${reopenFailures.length} failed attempts` +
        `${reopenFailures.length ? `: ${[...new Set(reopenFailures)].join('; ')}` : ''}); access tokens refreshed ` +
        `${users.reduce((sum, user) => sum + user.refreshes, 0)} times`,
    );
    console.log(`rule runs (every ${RULE_MINUTES} min, slot times UTC):`);
    console.log(ruleLines.join('\n'));
    console.log(`jobs by state at the end: ${JSON.stringify(jobs.byState)}`);
    console.log(`jobs left behind (due or active > 1 min): ${JSON.stringify(jobs.stuck)}`);
    console.log(`exit codes after SIGTERM: ${JSON.stringify(exitCodes)}`);
    console.log(
      `load average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    const misses = [
      routes.errors > 0 && `${routes.errors} errors`,
      stability.unstable.length > 0 && `p99 not stable: ${stability.unstable.join(', ')}`,
      memory.worstGrowth >= 0.1 && `RSS grew ${(memory.worstGrowth * 100).toFixed(1)} %`,
      delivered() !== expected && 'notes missing from streams',
      streamsDown > 0 && 'streams down at the end',
      missedSlots > 0 && `${missedSlots} rule slots without a run`,
      jobs.stuck.length > 0 && 'jobs left behind',
      Object.values(exitCodes).some((code) => code !== 0) && 'a process did not stop cleanly',
    ].filter(Boolean);
    failed = misses.length > 0;
    console.log(failed ? `\nMISSED: ${misses.join('; ')}` : '\nall targets met');
  } catch (error) {
    failed = true;
    console.error(error);
    for (const running of cluster.processes) console.error(`--- ${running.name}\n${running.output.join('')}`);
  } finally {
    await cluster.remove();
  }
  process.exit(failed ? 1 : 0);
}

await main();
