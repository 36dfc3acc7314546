import { errorEnvelopeSchema } from '@adpilot/contracts';
import type { RunningSandbox } from '@adpilot/meta-sandbox';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxAccounts } from '../test/connect-account.ts';
import { malformedRequest, sweepRequests, type FuzzContext } from '../test/fuzz/malformed-requests.ts';
import { operationsOf, type Operation } from '../test/fuzz/openapi.ts';
import { Random } from '../test/fuzz/random.ts';
import { startTestSandbox } from '../test/meta-sandbox.ts';
import { createTestApp, registerUser, type TestApp } from '../test/test-app.ts';

/** Fixed, so every run sends the same requests and a failure names one that can be replayed. */
const SEED = 0x5eed_2026;
const RANDOM_REQUESTS_PER_OPERATION = 100;

let t: TestApp;
let sandbox: RunningSandbox;
let context: FuzzContext;
let accounts: Awaited<ReturnType<typeof registerUser>>[];

beforeAll(async () => {
  const started = await startTestSandbox();
  sandbox = started.running;
  // The flood limit is off so that every request reaches the code under test.
  t = await createTestApp(
    { RATE_LIMIT_MAX: '0' },
    { meta: started.provider, scheduler: { enqueueSync: async () => true } },
  );
  // A running queue (no handlers), as in an API process: readiness is then 200, and any 503 a finding.
  await t.ctx.jobs.start({ work: false });
  // The first user is the admin; the second owns the sandbox's ad accounts.
  accounts = [await registerUser(t.app), await registerUser(t.app)];
  const [admin, member] = accounts as [(typeof accounts)[0], (typeof accounts)[0]];
  context = { ownedIds: await connectSandboxAccounts(t.app, member.auth), sessions: [member.auth, admin.auth] };
  // The demo is built as its hourly job would: before that, Watch Demo answers its designed 503 "being prepared".
  await t.modules.demo.service.rebuild();
});
afterAll(async () => {
  await t.ctx.jobs.stop();
  await t.close();
  await sandbox.close();
});

/** Whether the document lists `status` for the operation: exactly, by its class (`4XX`), or as `default`. */
function documents(operation: Operation, status: number): boolean {
  const listed = new Set(operation.documented.map((code) => code.toUpperCase()));
  return listed.has(String(status)) || listed.has(`${String(status)[0]}XX`) || listed.has('DEFAULT');
}

function seedOf(operation: Operation): number {
  let hash = SEED;
  for (const char of `${operation.method} ${operation.path}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16_777_619);
  return hash >>> 0;
}

interface Failure {
  method: string;
  url: string;
  status: number;
  body: string;
}

/** A fuzzed logout may end a session: sign in again so later requests still reach past authentication. */
async function keepSessionsAlive(): Promise<void> {
  for (const [index, account] of accounts.entries()) {
    const session = context.sessions[index];
    if (!session) continue;
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: session });
    if (me.statusCode === 200) continue;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.user.email, password: account.password },
    });
    if (login.statusCode !== 200) throw new Error(`could not sign in again: ${login.statusCode} ${login.body}`);
    session.authorization = `Bearer ${login.json().data.token}`;
  }
}

/** 5xx is a bug anywhere; under /api the answer must also be the envelope, success or not. */
function failureOf(request: InjectOptions, status: number, body: string): Failure | undefined {
  const url = String(request.url);
  const failure = { method: String(request.method), url: url.slice(0, 200), status, body: body.slice(0, 300) };
  if (status >= 500) return failure;
  if (!/^\/api(\/|\?|$)/.test(url)) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null && 'success' in parsed && parsed.success === true) {
      return 'data' in parsed ? undefined : failure;
    }
    return errorEnvelopeSchema.safeParse(parsed).success ? undefined : failure;
  } catch {
    return failure;
  }
}

/**
 * An event stream answers 200 and never ends: its headers are read, the stream dropped, and it counts as passing
 * when it is really an event stream; any other answer (a 4xx) is read whole and checked like the rest.
 */
async function injectStream(request: InjectOptions) {
  const response = await t.app.inject({ ...request, payloadAsStream: true });
  const stream = response.stream();
  if (response.statusCode === 200 && String(response.headers['content-type']).startsWith('text/event-stream')) {
    stream.destroy();
    return { statusCode: 200, headers: response.headers, body: '', streamed: true };
  }
  let body = '';
  for await (const chunk of stream) body += String(chunk);
  return { statusCode: response.statusCode, headers: response.headers, body, streamed: false };
}

describe('fuzzing every operation of the OpenAPI document', () => {
  it('answers thousands of malformed requests with no 5xx, and under /api always with the envelope', async () => {
    // Deletes last, so the operations before them still find the ad accounts they remove.
    const operations: Operation[] = operationsOf(t.app.swagger() as Parameters<typeof operationsOf>[0]).sort(
      (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
    );
    expect(operations.length).toBeGreaterThan(10);
    // The recursive rule conditions are unfolded from their named schemas: the generator builds real nested groups.
    const createRule = operations.find((operation) => operation.method === 'POST' && operation.path === '/api/rules/');
    expect(JSON.stringify(createRule?.body)).not.toContain('$ref');
    expect(JSON.stringify(createRule?.body)).toContain('"operator"');
    const failures: Failure[] = [];
    const undocumented = new Map<string, Set<number>>();
    const statuses = new Map<number, number>();
    let sent = 0;
    for (const operation of operations) {
      // Each operation has its own stream, so a route added later does not change what the others are sent.
      const random = new Random(seedOf(operation));
      const requests = [
        ...sweepRequests(operation, random, context),
        ...Array.from({ length: RANDOM_REQUESTS_PER_OPERATION }, () => malformedRequest(operation, random, context)),
      ];
      for (const request of requests) {
        const response = operation.streams ? await injectStream(request) : await t.app.inject(request);
        sent += 1;
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        // Sent with another method, a request may reach any route its address matches, or none (405 or 404):
        // it is not one operation's to document (method-not-allowed.test.ts holds the 405). Nor is a 405 whose
        // Allow leaves the method out: a path parameter (an empty one) made the address another path's.
        // A path parameter of "." or ".." (raw or encoded) is a dot segment: the address resolves to another path's
        // (`/api/account/export/..` is `/api/account`), as every URL parser reads it.
        const elsewhere =
          (response.statusCode === 405 &&
            !String(response.headers.allow ?? '')
              .split(', ')
              .includes(String(request.method))) ||
          /\/(?:\.|%2e){1,2}(?:[/?#]|$)/i.test(String(request.url));
        if (request.method === operation.method && !elsewhere && !documents(operation, response.statusCode)) {
          const key = `${operation.method} ${operation.path}`;
          undocumented.set(key, (undocumented.get(key) ?? new Set()).add(response.statusCode));
        }
        // A declared download (the export) answers 200 with a file, marked as an attachment.
        const download =
          operation.downloads &&
          response.statusCode === 200 &&
          String(response.headers['content-disposition']).startsWith('attachment');
        // The metrics answer 200 in the Prometheus text format.
        const exposition =
          operation.exposition &&
          response.statusCode === 200 &&
          String(response.headers['content-type']).startsWith('text/plain; version=0.0.4');
        const streamed = 'streamed' in response && response.streamed;
        const failure =
          streamed || download || exposition ? undefined : failureOf(request, response.statusCode, response.body);
        if (failure) failures.push(failure);
      }
      await keepSessionsAlive();
    }
    // 5xx first: they are the worst, and the first ten are what the report shows.
    failures.sort((a, b) => b.status - a.status);
    expect(failures.slice(0, 10), `${failures.length} of ${sent} requests failed`).toEqual([]);
    // Every answer is one the document lists for its operation: a client generated from it is never surprised.
    expect(Object.fromEntries([...undocumented].map(([key, codes]) => [key, [...codes].sort()]))).toEqual({});
    expect(sent).toBeGreaterThanOrEqual(3_000);
    // The fuzz reached past validation too: some answers were successes or not-founds of real lookups.
    expect([...statuses.keys()]).toEqual(expect.arrayContaining([200, 400, 401, 404]));
  }, 120_000);
});
