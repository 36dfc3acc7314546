import { errorEnvelopeSchema, INPUT_MESSAGES } from '@adpilot/contracts';
import type { RunningSandbox } from '@adpilot/meta-sandbox';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxAccounts } from '../test/connect-account.ts';
import { startTestSandbox } from '../test/meta-sandbox.ts';
import { createTestApp, registerUser, type TestApp } from '../test/test-app.ts';

/** Each case here was once a 500 or an answer outside the envelope. */
let t: TestApp;
let sandbox: RunningSandbox;
let session: Awaited<ReturnType<typeof registerUser>>;
let accountId: string;

beforeAll(async () => {
  const started = await startTestSandbox();
  sandbox = started.running;
  t = await createTestApp({}, { meta: started.provider, scheduler: { enqueueSync: async () => true } });
  session = await registerUser(t.app);
  [accountId = ''] = await connectSandboxAccounts(t.app, session.auth);
});
afterAll(async () => {
  await t.close();
  await sandbox.close();
});

function expectEnvelope(body: string, code: string) {
  const parsed = errorEnvelopeSchema.safeParse(JSON.parse(body));
  expect(parsed.success, body).toBe(true);
  expect(parsed.data?.code).toBe(code);
  return parsed.data;
}

describe('control characters are a 400, not a database error', () => {
  it.each(['Ann\u0000Lee', 'Ann\u0007Lee', 'Ann\ud800Lee'])('registering the name %j', async (name) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name, email: `nul-${name.length}-${Date.now()}@example.com`, password: 'Sup3rSecret!' },
    });
    expect(response.statusCode).toBe(400);
    expect(expectEnvelope(response.body, 'VALIDATION_ERROR')?.errors).toEqual([
      { field: 'name', message: INPUT_MESSAGES.controlCharacters },
    ]);
  });

  it('renaming an ad account to a name with a NUL', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/ad-accounts/${accountId}`,
      headers: session.auth,
      payload: { facebook_account_name: 'Shop\u0000' },
    });
    expect(response.statusCode).toBe(400);
    expect(expectEnvelope(response.body, 'VALIDATION_ERROR')?.message).toBe(INPUT_MESSAGES.controlCharacters);
  });
});

describe('stats dates are real calendar dates in a sane range', () => {
  const stats = (query: string) =>
    t.app.inject({ method: 'GET', url: `/api/ad-accounts/${accountId}/stats?${query}`, headers: session.auth });

  it.each([
    'start_date=0000-01-01&end_date=0000-01-02',
    'end_date=0000-01-01',
    'end_date=9999-12-31',
    'start_date=9999-12-01&end_date=9999-12-31',
  ])('%s is refused with the range message', async (query) => {
    const response = await stats(query);
    expect(response.statusCode).toBe(400);
    expect(expectEnvelope(response.body, 'VALIDATION_ERROR')?.message).toBe(INPUT_MESSAGES.dateRange);
  });

  it('a date that does not exist is refused as a format error', async () => {
    const response = await stats('end_date=2023-02-29');
    expect(response.statusCode).toBe(400);
    expect(expectEnvelope(response.body, 'VALIDATION_ERROR')?.message).toBe(INPUT_MESSAGES.dateFormat);
  });

  it('the last accepted day still answers', async () => {
    const response = await stats('start_date=2099-12-01&end_date=2099-12-31');
    expect(response.statusCode).toBe(200);
  });
});

describe('addresses Fastify refuses before any route', () => {
  it('a bad percent escape is a 400 envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/ad-accounts/%ZZ', headers: session.auth });
    expect(response.statusCode).toBe(400);
    expectEnvelope(response.body, 'BAD_REQUEST');
  });

  it('a 120-character id reaches its schema and is an invalid id', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/ad-accounts/${'a'.repeat(120)}`,
      headers: session.auth,
    });
    expect(response.statusCode).toBe(400);
    expect(expectEnvelope(response.body, 'VALIDATION_ERROR')?.message).toBe('Invalid ad account id');
  });

  it('an id longer than any address should be is a 414 envelope', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/ad-accounts/${'a'.repeat(600)}`,
      headers: session.auth,
    });
    expect(response.statusCode).toBe(414);
    expectEnvelope(response.body, 'BAD_REQUEST');
  });
});

/** Node's HTTP parser answers these itself, so only a real socket shows them. */
describe('on a real socket', () => {
  function get(path: string): Promise<{ status: number; type?: string; body: string }> {
    const { port } = t.app.server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      const outgoing = request({ host: '127.0.0.1', port, path }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'], body }),
        );
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  it('a 16 KB query string is a 431 envelope', async () => {
    const response = await get(`/api/ad-accounts?q=${'a'.repeat(16 * 1024)}`);
    expect(response.status).toBe(431);
    expect(response.type).toContain('application/json');
    expectEnvelope(response.body, 'BAD_REQUEST');
  });

  it('a bad percent escape is a 400 envelope', async () => {
    const response = await get('/api/ad-accounts/%ZZ');
    expect(response.status).toBe(400);
    expectEnvelope(response.body, 'BAD_REQUEST');
  });
});

describe('the flood limiter', () => {
  // It builds its own app, which takes long on a busy machine.
  it('lets at most RATE_LIMIT_MAX through in parallel, counts before authentication, answers 429 in the envelope', async () => {
    const limited = await createTestApp({ RATE_LIMIT_MAX: '3' });
    try {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => limited.app.inject({ method: 'GET', url: '/api/ad-accounts' })),
      );
      const passed = answers.filter((answer) => answer.statusCode !== 429);
      expect(passed.length).toBeLessThanOrEqual(3);
      expect(passed.every((answer) => answer.statusCode === 401)).toBe(true);
      const refused = await limited.app.inject({ method: 'GET', url: '/api/does-not-exist' });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(expectEnvelope(refused.body, 'RATE_LIMITED')?.message).toBe('Too many requests, please try again later');
      expect((await limited.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  }, 60_000);
});
