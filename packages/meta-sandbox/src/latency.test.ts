import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Faults, LatencyDistribution } from './faults.ts';
import { startSandboxServer, type RunningSandbox } from './http/server.ts';

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

describe('the latency distribution', () => {
  it('has the median and the 99th percentile it was given, and a long tail above the median', () => {
    const distribution = new LatencyDistribution({ p50Ms: 200, p99Ms: 1000, seed: 'quantiles' });
    const draws = Array.from({ length: 40_000 }, () => distribution.next()).sort((a, b) => a - b);
    expect(quantile(draws, 0.5)).toBeGreaterThanOrEqual(190);
    expect(quantile(draws, 0.5)).toBeLessThanOrEqual(210);
    expect(quantile(draws, 0.99)).toBeGreaterThanOrEqual(900);
    expect(quantile(draws, 0.99)).toBeLessThanOrEqual(1100);
    // The log-normal's mean, exp(μ + σ²/2), is above its median: about 254 ms here.
    const mean = draws.reduce((sum, ms) => sum + ms, 0) / draws.length;
    expect(mean).toBeGreaterThan(240);
    expect(mean).toBeLessThan(270);
    expect(draws[0]).toBeGreaterThanOrEqual(0);
  });

  it('draws the same delays in the same order under one seed, and others under another', () => {
    const draw = (seed: string) => {
      const distribution = new LatencyDistribution({ p50Ms: 200, p99Ms: 1000, seed });
      return Array.from({ length: 20 }, () => distribution.next());
    };
    expect(draw('a')).toEqual(draw('a'));
    expect(draw('a')).not.toEqual(draw('b'));
  });

  it('is a fixed delay when the median and the 99th percentile agree, and none at zero', () => {
    const fixed = new LatencyDistribution({ p50Ms: 300, p99Ms: 300 });
    expect(new Set(Array.from({ length: 50 }, () => fixed.next()))).toEqual(new Set([300]));
    const none = new LatencyDistribution({ p50Ms: 0, p99Ms: 0 });
    expect(none.next()).toBe(0);
  });

  it('refuses a 99th percentile below the median; set() restarts the seed, clear() removes the delay', () => {
    const faults = new Faults();
    expect(() => faults.set({ latency: { p50Ms: 500, p99Ms: 100 } })).toThrow(/p99Ms/);
    faults.set({ latency: { p50Ms: 200, p99Ms: 1000, seed: 's' } });
    const first = [faults.nextLatencyMs(), faults.nextLatencyMs()];
    faults.set({ latency: { p50Ms: 200, p99Ms: 1000, seed: 's' } });
    expect([faults.nextLatencyMs(), faults.nextLatencyMs()]).toEqual(first);
    faults.set({ latencyMs: 7 });
    expect(faults.nextLatencyMs()).toBe(7);
    faults.clear();
    expect(faults.nextLatencyMs()).toBe(0);
  });
});

describe('the sandbox with latency on', () => {
  let running: RunningSandbox;
  beforeAll(async () => {
    running = await startSandboxServer({ controlRoutes: true });
  });
  afterAll(() => running.close());

  it('holds each Graph answer for a draw of the distribution, set over the control routes', async () => {
    const set = await fetch(`${running.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latency: { p50Ms: 120, p99Ms: 120, seed: 'http' } }),
    });
    expect(set.status).toBe(200);
    const token = running.sandbox.issueToken();
    const began = performance.now();
    const proof = createHmac('sha256', running.sandbox.appSecret).update(token).digest('hex');
    const answer = await fetch(`${running.url}/v27.0/me?access_token=${token}&appsecret_proof=${proof}`);
    const took = performance.now() - began;
    expect(answer.status, await answer.text()).toBe(200);
    expect(took).toBeGreaterThanOrEqual(115);

    const refused = await fetch(`${running.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latency: { p50Ms: 500, p99Ms: 100 } }),
    });
    expect(refused.status).toBe(400);
    running.sandbox.faults.clear();
  });
});
