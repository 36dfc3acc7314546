import { WORKSPACE_HEADER } from '@adpilot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { registerErrorHandling } from '../../plugins/errors.ts';
import { registerRequestMetrics } from '../../plugins/request-metrics.ts';
import { buildApp } from '../../app.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { AppMetrics } from './app-metrics.ts';
import { sample, scrapeOf, waitForSample } from '../../test/metrics-test-helpers.ts';

const TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';
const SOME_ID = '00000000-0000-4000-8000-000000000001';

let t: TestApp;
let admin: Awaited<ReturnType<typeof registerUser>>;
let member: Awaited<ReturnType<typeof registerUser>>;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN }, { jobQueue: { pollingIntervalSeconds: 0.5 } });
  admin = await registerUser(t.app); // the first user is the instance administrator
  member = await registerUser(t.app);
}, 60_000);
afterAll(() => t.close(), 60_000);

const scrape = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => scrapeOf(t.app, headers);

describe('who may read GET /api/metrics', () => {
  it('refuses a request without a token, with a wrong token, and a member who is not the administrator', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });

    const wrong = await scrape({ authorization: `Bearer ${TOKEN.slice(0, -1)}x` });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED', message: 'Invalid metrics token' });

    const signedIn = await scrape(member.auth);
    expect(signedIn.statusCode).toBe(403);
    expect(signedIn.json()).toMatchObject({ success: false, code: 'FORBIDDEN' });
  });

  it('answers the scraper with the token and the administrator with a session, in the Prometheus text format', async () => {
    for (const headers of [{ authorization: `Bearer ${TOKEN}` }, admin.auth]) {
      const answer = await scrape(headers);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.body).toContain('# TYPE adpilot_http_requests_total counter');
      // The process's own metrics (memory, event loop lag, GC) come with ours.
      expect(answer.body).toMatch(/^process_resident_memory_bytes \d+/m);
      expect(answer.body).toContain('nodejs_eventloop_lag_seconds');
    }
  });

  it('lets the scraper by the flood limit, which still counts everyone else', async () => {
    const limited = await createTestApp({ METRICS_TOKEN: TOKEN, RATE_LIMIT_MAX: '3' });
    try {
      const scrapes = [];
      for (let i = 0; i < 6; i++)
        scrapes.push((await scrapeOf(limited.app, { authorization: `Bearer ${TOKEN}` })).statusCode);
      expect(scrapes).toEqual([200, 200, 200, 200, 200, 200]);
      const guesses = [];
      for (let i = 0; i < 5; i++)
        guesses.push((await scrapeOf(limited.app, { authorization: 'Bearer guess' })).statusCode);
      expect(guesses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('is the administrator’s alone when no METRICS_TOKEN is set', async () => {
    const plain = await createTestApp();
    try {
      const first = await registerUser(plain.app);
      const second = await registerUser(plain.app);
      expect((await scrapeOf(plain.app, { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(401);
      expect((await scrapeOf(plain.app, second.auth)).statusCode).toBe(403);
      expect((await scrapeOf(plain.app, first.auth)).statusCode).toBe(200);
    } finally {
      await plain.close();
    }
  });
});

describe('what the metrics count', () => {
  it('counts requests by route pattern, method and status, and the count goes up', async () => {
    const labels = { method: 'GET', route: '/api/rules/:id', status: '404' };
    const before = sample((await scrape()).body, 'adpilot_http_requests_total', labels) ?? 0;
    const headers = { ...member.auth, [WORKSPACE_HEADER]: member.workspaceId };
    for (let i = 0; i < 2; i++) {
      const answer = await t.app.inject({ method: 'GET', url: `/api/rules/${SOME_ID}?q=${i}`, headers });
      expect(answer.statusCode).toBe(404);
    }
    await t.app.inject({ method: 'GET', url: `/api/no-such-route/${SOME_ID}` });
    const body = (await scrape()).body;
    expect(sample(body, 'adpilot_http_requests_total', labels)).toBe(before + 2);
    expect(sample(body, 'adpilot_http_request_duration_seconds_count', labels)).toBe(before + 2);
    expect(sample(body, 'adpilot_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    // A route's pattern, never the address asked for.
    expect(body).not.toContain(SOME_ID);
    expect(body).not.toContain('no-such-route');
  });

  it('holds no secret, e-mail address or user id in any label', async () => {
    const body = (await scrape(admin.auth)).body;
    for (const secret of [TOKEN, admin.user.email, member.user.email, admin.token, admin.user.id, member.workspaceId])
      expect(body).not.toContain(secret);
    expect(body).not.toMatch(/@example\.com/);
  });

  it('counts job attempts by queue and outcome, with their durations', async () => {
    let flaky = 0;
    t.ctx.jobs.define({ name: 'metrics-ok', payload: z.object({}), handler: async () => undefined });
    t.ctx.jobs.define({
      name: 'metrics-flaky',
      payload: z.object({}),
      retryLimit: 1,
      retryDelaySeconds: 1,
      handler: async () => {
        flaky += 1;
        if (flaky === 1) throw new Error('first attempt fails');
      },
    });
    t.ctx.jobs.define({
      name: 'metrics-failing',
      payload: z.object({}),
      retryLimit: 0,
      handler: async () => {
        throw new Error('always fails');
      },
    });
    await t.ctx.jobs.start({ work: true });
    try {
      for (const name of ['metrics-ok', 'metrics-flaky', 'metrics-failing']) await t.ctx.jobs.send(name, {});
      const expected = [
        [{ queue: 'metrics-ok', outcome: 'completed' }, 1],
        [{ queue: 'metrics-flaky', outcome: 'retried' }, 1],
        [{ queue: 'metrics-flaky', outcome: 'completed' }, 1],
        [{ queue: 'metrics-failing', outcome: 'failed' }, 1],
      ] as const;
      for (const [labels, value] of expected)
        await waitForSample(() => scrape().then((answer) => answer.body), 'adpilot_jobs_total', labels, value);
      const body = (await scrape()).body;
      expect(sample(body, 'adpilot_job_duration_seconds_count', { queue: 'metrics-ok', outcome: 'completed' })).toBe(1);
      expect(sample(body, 'adpilot_jobs_total', { queue: 'metrics-failing', outcome: 'retried' })).toBeUndefined();
    } finally {
      await t.ctx.jobs.stop();
    }
  }, 60_000);

  it('counts a 5xx by its code, an unhandled one apart', async () => {
    // The app's own error handler and request hook on a bare server, with routes that fail on purpose.
    const metrics = new AppMetrics();
    const server = Fastify();
    registerErrorHandling(server, (event) => metrics.serverError(event));
    registerRequestMetrics(server, metrics);
    server.get('/meta/:id', async () => {
      throw new AppError('META_ERROR', 'Facebook refused', 502);
    });
    server.get('/bug', async () => {
      throw new Error('a bug');
    });
    try {
      for (const url of ['/meta/1', '/meta/2', '/bug']) await server.inject({ method: 'GET', url });
      const { body } = await metrics.scrape();
      expect(sample(body, 'adpilot_http_server_errors_total', { code: 'META_ERROR', unhandled: 'false' })).toBe(2);
      expect(sample(body, 'adpilot_http_server_errors_total', { code: 'INTERNAL_ERROR', unhandled: 'true' })).toBe(1);
      expect(sample(body, 'adpilot_http_requests_total', { method: 'GET', route: '/meta/:id', status: '502' })).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('answers a scrape when the pending proposals cannot be counted, with NaN for them', async () => {
    const metrics = new AppMetrics();
    metrics.readFrom({ liveStreams: () => 2, proposalsPending: () => Promise.reject(new Error('database down')) });
    const { body } = await metrics.scrape();
    expect(sample(body, 'adpilot_proposals_pending', {})).toBeNaN();
    expect(sample(body, 'adpilot_live_streams', {})).toBe(2);
  });

  it('reads the pending proposals and the open live streams at scrape time', async () => {
    const body = (await scrape()).body;
    expect(sample(body, 'adpilot_proposals_pending', {})).toBe(0);
    expect(sample(body, 'adpilot_live_streams', {})).toBe(0);
    const subscription = await t.modules.activity.stream.subscribe(member.workspaceId, {}, undefined, () => undefined);
    try {
      expect(sample((await scrape()).body, 'adpilot_live_streams', {})).toBe(1);
    } finally {
      subscription.close();
    }
    expect(sample((await scrape()).body, 'adpilot_live_streams', {})).toBe(0);
  });
});

describe("a worker's HTTP (HEALTH_PORT)", () => {
  it('answers the metrics and the health check under the same guard, and nothing else', async () => {
    // The same context as the app's (its registry, its sessions), as a worker builds it.
    const worker = { ...t.ctx, config: { ...t.ctx.config, role: 'worker' as const } };
    const server = await buildApp(worker, { logger: false });
    try {
      const scraped = await scrapeOf(server, { authorization: `Bearer ${TOKEN}` });
      expect(scraped.statusCode).toBe(200);
      // The same registry as the app's: what this process counted.
      expect(scraped.body).toContain('adpilot_http_requests_total{method="GET",route="/api/rules/:id",status="404"}');
      expect((await scrapeOf(server, {})).statusCode).toBe(401);
      expect((await scrapeOf(server, member.auth)).statusCode).toBe(403);
      expect((await scrapeOf(server, admin.auth)).statusCode).toBe(200);
      expect((await server.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      const other = await server.inject({ method: 'GET', url: '/api/rules', headers: admin.auth });
      expect(other.statusCode).toBe(404);
      expect(other.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    } finally {
      await server.close();
    }
  });
});
