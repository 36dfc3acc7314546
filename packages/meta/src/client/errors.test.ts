import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '@adpilot/meta-sandbox/testing';
import {
  MetaApiError,
  MetaInvalidParameterError,
  MetaPermissionError,
  MetaRateLimitError,
  MetaTokenExpiredError,
  MetaTransientError,
  toMetaError,
} from './errors.ts';

let fixture: Fixture;
let actId: string;
beforeAll(async () => {
  fixture = await startFixture();
  actId = `act_${fixture.sandbox.personas[0]?.accountIds[0]}`;
});
afterAll(() => fixture.close());
beforeEach(() => {
  fixture.sandbox.faults.clear();
  fixture.sandbox.stats.reset();
  fixture.sleeps.length = 0;
});

/** The error a call fails with, checked to carry no secret anywhere a log could show it. */
async function failure(call: Promise<unknown>, secrets: string[]): Promise<MetaApiError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(MetaApiError);
  const shown = [
    String(error),
    JSON.stringify(error),
    (error as Error).stack ?? '',
    (error as MetaApiError).url ?? '',
  ].join('\n');
  for (const secret of secrets) expect(shown).not.toContain(secret);
  return error as MetaApiError;
}

describe('error mapping', () => {
  it('classifies Graph codes', () => {
    const classOf = (code: number, extra: { isTransient?: boolean; httpStatus?: number } = {}) =>
      toMetaError({ message: 'x', code, ...extra }).constructor;
    expect(classOf(190)).toBe(MetaTokenExpiredError);
    expect(classOf(102)).toBe(MetaTokenExpiredError);
    expect(classOf(10)).toBe(MetaPermissionError);
    expect(classOf(273)).toBe(MetaPermissionError);
    for (const code of [4, 17, 32, 613, 80000, 80004, 80014]) expect(classOf(code)).toBe(MetaRateLimitError);
    expect(classOf(100)).toBe(MetaInvalidParameterError);
    expect(classOf(1)).toBe(MetaTransientError);
    expect(classOf(2)).toBe(MetaTransientError);
    expect(classOf(3000, { isTransient: true })).toBe(MetaTransientError);
    expect(classOf(0, { httpStatus: 503 })).toBe(MetaTransientError);
    expect(classOf(2500)).toBe(MetaApiError);
  });

  it('expired token: MetaTokenExpiredError 190/463, not retried', async () => {
    fixture.sandbox.faults.set({ expiredToken: true });
    const error = await failure(fixture.client().listAdAccounts(fixture.token), [
      fixture.token,
      fixture.sandbox.appSecret,
    ]);
    expect(error).toBeInstanceOf(MetaTokenExpiredError);
    expect(error).toMatchObject({ code: 190, subcode: 463, httpStatus: 400 });
    expect(error.fbtraceId).toBeTruthy();
    expect(fixture.sandbox.stats.total).toBe(1);
  });

  it('missing permission: MetaPermissionError 200 for a write with an ads_read token', async () => {
    const readOnly = fixture.sandbox.issueToken(undefined, ['ads_read']);
    const campaignId = fixture.sandbox.world.account(actId)?.campaignIds[0] ?? '';
    const error = await failure(fixture.client().updateStatus(readOnly, campaignId, 'PAUSED'), [readOnly]);
    expect(error).toBeInstanceOf(MetaPermissionError);
    expect(error.code).toBe(200);
    expect(fixture.sandbox.stats.total).toBe(1);
  });

  it("another user's account: code 100/33 as for an id that does not exist, not retried", async () => {
    const other = fixture.sandbox.personas[1]?.accountIds[0] ?? '';
    const error = await failure(fixture.client().getAdAccount(fixture.token, other), [fixture.token]);
    expect(error).toBeInstanceOf(MetaInvalidParameterError);
    expect(error).toMatchObject({ code: 100, subcode: 33 });
    expect(error.url).toContain('appsecret_proof=REDACTED');
    expect(fixture.sandbox.stats.total).toBe(1);
  });

  it('invalid parameter: a budget under the minimum fails once, without retry', async () => {
    const adSet = fixture.sandbox.world
      .accountAdSets(fixture.sandbox.world.account(actId)!)
      .find((candidate) => candidate.budgetLog[0]?.dailyBudget);
    const error = await failure(fixture.client().updateBudget(fixture.token, adSet?.id ?? '', { dailyBudget: 50 }), [
      fixture.token,
    ]);
    expect(error).toBeInstanceOf(MetaInvalidParameterError);
    expect(error.message).toContain('minimum budget');
    expect(fixture.sandbox.stats.total).toBe(1);
    expect(fixture.sleeps).toEqual([]);
  });

  it('network failure: MetaTransientError without the token', async () => {
    const closed = await startFixture();
    await closed.close();
    const client = fixture.client({ graphBaseUrl: closed.url, maxRetries: 0 });
    const error = await failure(client.listAdAccounts(fixture.token), [fixture.token, fixture.sandbox.appSecret]);
    expect(error).toBeInstanceOf(MetaTransientError);
    expect(error.type).toBe('NetworkError');
  });
});

describe('retries', () => {
  it('waits the announced regain time after a rate limit, then succeeds', async () => {
    fixture.sandbox.faults.set({ rateLimit: { count: 1, regainMinutes: 2 } });
    const accounts = await fixture.client().listCampaigns(fixture.token, actId);
    expect(accounts.length).toBeGreaterThan(0);
    expect(fixture.sleeps).toEqual([120_000]);
    expect(fixture.sandbox.stats.total).toBe(2);
  });

  it('gives up after a bounded number of rate-limit waits and reports retryAfterMs', async () => {
    fixture.sandbox.faults.set({ rateLimit: { count: 10, regainMinutes: 1, code: 17 } });
    const error = await failure(fixture.client().listCampaigns(fixture.token, actId), [fixture.token]);
    expect(error).toBeInstanceOf(MetaRateLimitError);
    expect(error).toMatchObject({ code: 17, retryAfterMs: 60_000 });
    expect(fixture.sleeps).toEqual([60_000, 60_000]);
    expect(fixture.sandbox.stats.total).toBe(3);
  });

  it('does not sleep through an announced wait longer than the cap: it throws with retryAfterMs', async () => {
    fixture.sandbox.faults.set({ rateLimit: { count: 1, regainMinutes: 60 } });
    const client = fixture.client();
    const error = await failure(client.listCampaigns(fixture.token, actId), [fixture.token]);
    expect(error).toMatchObject({ code: 80004, retryAfterMs: 3_600_000 });
    expect(fixture.sleeps).toEqual([]);
    // The account stays on hold: the next call fails locally instead of hitting Meta again.
    fixture.sandbox.stats.reset();
    await expect(client.listAds(fixture.token, actId)).rejects.toMatchObject({ type: 'ClientThrottle' });
    expect(fixture.sandbox.stats.total).toBe(0);
  });

  it('retries transient 5xx answers with growing backoff, then succeeds', async () => {
    fixture.sandbox.faults.set({ serverError: { count: 2 } });
    const accounts = await fixture.client().listAdAccounts(fixture.token);
    expect(accounts).toHaveLength(3);
    expect(fixture.sleeps).toEqual([750, 1500]);
    expect(fixture.sandbox.stats.total).toBe(3);
  });

  it('stops after maxRetries transient failures with a MetaTransientError', async () => {
    fixture.sandbox.faults.set({ serverError: { count: 10 } });
    const error = await failure(fixture.client({ maxRetries: 2 }).listAdAccounts(fixture.token), [fixture.token]);
    expect(error).toBeInstanceOf(MetaTransientError);
    expect(error.httpStatus).toBe(500);
    expect(fixture.sandbox.stats.total).toBe(3);
  });
});

describe('throttling and logs', () => {
  it('holds calls for an account whose usage announces a regain time, before sending them', async () => {
    const requests: string[] = [];
    const fetchStub: typeof fetch = async (input) => {
      requests.push(String(input));
      const usage = {
        '42': [
          {
            type: 'ads_management',
            call_count: 96,
            total_cputime: 10,
            total_time: 20,
            estimated_time_to_regain_access: 3,
          },
        ],
      };
      return new Response(
        JSON.stringify({
          id: 'act_42',
          account_id: '42',
          name: 'A',
          currency: 'USD',
          timezone_name: 'UTC',
          account_status: 1,
        }),
        {
          headers: { 'content-type': 'application/json', 'x-business-use-case-usage': JSON.stringify(usage) },
        },
      );
    };
    const client = fixture.client({ fetch: fetchStub });
    await client.getAdAccount('token-value-123', 'act_42');
    expect(fixture.sleeps).toEqual([]);
    expect(client.usage('act_42')?.businessUseCase[0]?.estimatedTimeToRegainAccess).toBe(3);
    await client.getAdAccount('token-value-123', 'act_42');
    expect(fixture.sleeps).toEqual([180_000]);
    expect(requests).toHaveLength(2);
  });

  it('never logs a token, the app secret or a code', async () => {
    const lines: string[] = [];
    const logger = {
      debug: (data: Record<string, unknown>, message: string) => lines.push(`${message} ${JSON.stringify(data)}`),
      warn: (data: Record<string, unknown>, message: string) => lines.push(`${message} ${JSON.stringify(data)}`),
    };
    fixture.sandbox.faults.set({ serverError: { count: 1 } });
    const client = fixture.client({ logger });
    await client.listAdAccounts(fixture.token);
    await client
      .exchangeCode({ code: 'AQsecret-code-value', redirectUri: 'https://a.example/cb' })
      .catch(() => undefined);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const text = lines.join('\n');
    for (const secret of [fixture.token, fixture.sandbox.appSecret, 'AQsecret-code-value'])
      expect(text).not.toContain(secret);
  });
});
