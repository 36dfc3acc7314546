// MCP tool-call latency over HTTP, through the official SDK's client (ADR 0152): one seeded 500-ad account synced,
// a stop-loss rule over its ads, an API token; then `BENCH_ROUNDS` (default 100) calls of each tool one at a time,
// as an agent makes them: authentication, the per-token counter, the tool, its log entry, JSON over the wire.
// p50 and p99 per tool, and each answer's size. Prints one line; the target is query_entities' p99 under 100 ms on
// the 500 ads, a page of 25 (the largest) by spend over the last 7 days and by CPA over 30, each against the days
// before. On PGlite, or on Postgres when TEST_DATABASE_URL names a server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadavg } from 'node:os';
import { workspaceJob } from '../apps/server/src/lib/scope.ts';
import { startBenchApp } from './sandbox-app.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

// The per-token limit (60 a minute) is what an agent meets; the bench measures the calls themselves.
const { app, ctx, auth, workspaceId, connected, close } = await startBenchApp({
  accounts: 1,
  env: { MCP_TOOL_CALLS_PER_MINUTE: '0' },
});
try {
  const synced = await ctx.modules.adAccounts.sync.sync(workspaceJob(workspaceId), connected[0]!, { final: true });
  if (synced.status !== 'synced') throw new Error(`sync: ${synced.status}`);
  const rule = await app.inject({
    method: 'POST',
    url: '/api/rules',
    headers: auth,
    payload: {
      name: 'Stop loss',
      isActive: false,
      scope: { adAccountIds: [connected[0]], level: 'ad' },
      conditions: { match: 'all', items: [{ metric: 'cpa', operator: 'gt', value: 200, window: 'last_7d' }] },
      actions: [{ type: 'pause' }],
      schedule: { everyMinutes: 60 },
    },
  });
  const ruleId = rule.json().data.id as string;
  const minted = await app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: auth,
    payload: { name: 'Bench agent', scopes: ['read'] },
  });
  const token = minted.json().data.token as string;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );

  const account = connected[0];
  const calls: [string, Record<string, unknown>][] = [
    ['query_entities', { level: 'ad', adAccountId: account, sort: '-spend', limit: 25 }],
    ['query_entities', { level: 'ad', adAccountId: account, sort: 'cpa', window: 'last_30d', limit: 25 }],
    ['list_ad_accounts', {}],
    ['list_rules', {}],
    ['preview_rule', { ruleId }],
    ['list_activity', { limit: 20 }],
  ];
  const figures: string[] = [];
  for (const [name, args] of calls) {
    const times: number[] = [];
    let bytes = 0;
    // One call first, untimed, as the explorer's bench does: the read model's first page of a process fills its cache.
    await client.callTool({ name, arguments: args });
    const cpu = process.cpuUsage();
    for (let round = 0; round < ROUNDS; round += 1) {
      const started = performance.now();
      const result = await client.callTool({ name, arguments: args });
      bytes = Buffer.byteLength(JSON.stringify(result.content));
      times.push(performance.now() - started);
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    }
    const used = process.cpuUsage(cpu);
    // The bench's one process (client, server and, on PGlite, the database) per call: what a busy machine does not
    // inflate the way it inflates wall time.
    const cpuMs = (used.user + used.system) / 1000 / ROUNDS;
    times.sort((a, b) => a - b);
    const label =
      name === 'query_entities' ? `${name} (${String(args.sort)}, ${String(args.window ?? 'last_7d')})` : name;
    figures.push(
      `${label} p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms, CPU ${cpuMs.toFixed(1)} ms a call, ${(bytes / 1024).toFixed(1)} KiB`,
    );
  }
  await client.close();
  console.log(
    `mcp-tools: ${ROUNDS} calls of each tool, one at a time over HTTP, on a 500-ad account (${process.env.TEST_DATABASE_URL ? 'Postgres' : 'PGlite'}): ${figures.join('; ')}; load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await close();
}
