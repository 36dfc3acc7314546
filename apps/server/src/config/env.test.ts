import { describe, expect, it } from 'vitest';
import { loadConfig } from './env.ts';

describe('loadConfig', () => {
  it('has the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      dataDir: './data',
      role: 'all',
      databaseUrl: undefined,
      meta: { mode: 'sandbox', version: 'v27.0' },
    });
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it("dates the pinned Marketing API version's end from Meta's version history, or from META_API_VERSION_ENDS_AT", () => {
    // Meta's version history gives no date for v27.0 yet ("TBD"), v25.0 ends on 23 February 2027.
    expect(loadConfig({}).meta.versionEndsAt).toBeNull();
    expect(loadConfig({ META_API_VERSION: 'v25.0' }).meta.versionEndsAt).toBe('2027-02-23');
    expect(loadConfig({ META_API_VERSION: 'v24.0' }).meta.versionEndsAt).toBe('2026-11-10');
    expect(loadConfig({ META_API_VERSION_ENDS_AT: '2027-11-04' }).meta).toMatchObject({
      version: 'v27.0',
      versionEndsAt: '2027-11-04',
    });
    expect(loadConfig({ META_API_VERSION_ENDS_AT: '' }).meta.versionEndsAt).toBeNull();
    expect(() => loadConfig({ META_API_VERSION_ENDS_AT: 'next year' })).toThrow(/META_API_VERSION_ENDS_AT/);
  });

  it('runs 2 rule runs at once per process unless RULE_RUN_CONCURRENCY says more', () => {
    expect(loadConfig({}).ruleRunConcurrency).toBe(2);
    expect(loadConfig({ RULE_RUN_CONCURRENCY: '8' }).ruleRunConcurrency).toBe(8);
    expect(() => loadConfig({ RULE_RUN_CONCURRENCY: '0' })).toThrow(/RULE_RUN_CONCURRENCY/);
  });

  it('pushes LINE notifications to api.line.me unless LINE_API_URL names another address', () => {
    expect(loadConfig({}).lineApiUrl).toBe('https://api.line.me');
    expect(loadConfig({ LINE_API_URL: 'http://127.0.0.1:4010/' }).lineApiUrl).toBe('http://127.0.0.1:4010');
    expect(() => loadConfig({ LINE_API_URL: 'not a url' })).toThrow(/LINE_API_URL/);
  });

  it('lists every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'abc', ROLE: 'boss', DATABASE_URL: 'mysql://x', APP_SECRET: 'short' })).toThrow(
      /PORT[\s\S]*ROLE[\s\S]*DATABASE_URL[\s\S]*APP_SECRET|PORT[\s\S]*DATABASE_URL/,
    );
    try {
      loadConfig({ PORT: 'abc', ROLE: 'boss', DATABASE_URL: 'mysql://x', APP_SECRET: 'short' });
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'ROLE', 'DATABASE_URL', 'APP_SECRET']) expect(message).toContain(name);
    }
  });

  it('reads the flood limit per minute, 600 by default, 0 for off, never negative', () => {
    expect(loadConfig({}).rateLimitMax).toBe(600);
    expect(loadConfig({ RATE_LIMIT_MAX: '0' }).rateLimitMax).toBe(0);
    expect(loadConfig({ RATE_LIMIT_MAX: '50000' }).rateLimitMax).toBe(50_000);
    expect(() => loadConfig({ RATE_LIMIT_MAX: '-1' })).toThrow(/RATE_LIMIT_MAX/);
    expect(loadConfig({}).registrationsPerHour).toBe(20);
    expect(loadConfig({ REGISTRATION_LIMIT_PER_HOUR: '0' }).registrationsPerHour).toBe(0);
    expect(() => loadConfig({ REGISTRATION_LIMIT_PER_HOUR: 'many' })).toThrow(/REGISTRATION_LIMIT_PER_HOUR/);
  });

  it('reads the AI call timeout, a minute by default, at least a second', () => {
    expect(loadConfig({}).aiTimeoutMs).toBe(60_000);
    expect(loadConfig({ AI_TIMEOUT_MS: '15000' }).aiTimeoutMs).toBe(15_000);
    expect(() => loadConfig({ AI_TIMEOUT_MS: '10' })).toThrow(/AI_TIMEOUT_MS/);
  });

  it('switches to Meta when an app id and secret are set, and refuses one without the other', () => {
    expect(loadConfig({ META_APP_ID: '1', META_APP_SECRET: 's' }).meta.mode).toBe('live');
    expect(() => loadConfig({ META_APP_ID: '1' })).toThrow(/META_APP_SECRET/);
  });

  it('mounts the sandbox control routes only when asked for, and never in production', () => {
    expect(loadConfig({}).meta.sandboxControlRoutes).toBe(false);
    expect(loadConfig({ SANDBOX_CONTROL_ROUTES: 'true' }).meta.sandboxControlRoutes).toBe(true);
    expect(loadConfig({ SANDBOX_CONTROL_ROUTES: 'true', NODE_ENV: 'production' }).meta.sandboxControlRoutes).toBe(
      false,
    );
  });

  it('reads the metrics token (32 characters at least) and a worker’s metrics port, both optional', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'x'.repeat(32) }).metricsToken).toBe('x'.repeat(32));
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({}).healthPort).toBeUndefined();
    expect(loadConfig({ HEALTH_PORT: '9464' }).healthPort).toBe(9464);
    expect(() => loadConfig({ HEALTH_PORT: 'high' })).toThrow(/HEALTH_PORT/);
  });
});
