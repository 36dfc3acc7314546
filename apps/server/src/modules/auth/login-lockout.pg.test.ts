import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIns, WRONG_PASSWORD as WRONG } from '../../test/login-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';
import { deviceCookieHeader } from './device-cookie.ts';

/** The owner past a spent account budget: a known browser, or a code by e-mail (ADR 0087). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { newAddress, login, parallel } = signIns(() => t, '203.0');

/** The `name=value` of the device cookie a sign-in answered, as a browser sends it back. */
function deviceCookie(response: { headers: Record<string, unknown> }): string {
  const line = String(response.headers['set-cookie'] ?? '');
  const pair = /^(adpilot_device=[^;]+)/.exec(line)?.[1];
  if (!pair) throw new Error(`no device cookie in ${line}`);
  return pair;
}

/** 10 addresses × 5 wrong passwords: each address within its limits, the account's budget of 50 spent. */
async function spendAccountBudget(email: string): Promise<void> {
  const guesses = Array.from({ length: 10 }, newAddress).flatMap((address) =>
    Array.from({ length: 5 }, () => ({ email, password: WRONG, address })),
  );
  const statuses = await parallel(guesses);
  expect(statuses.filter((status) => status === 401)).toHaveLength(50);
}

async function askCode(email: string, address = newAddress()): Promise<string> {
  const sentBefore = t.mailer.sent.length;
  const asked = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login-code',
    remoteAddress: address,
    payload: { email },
  });
  expect(asked.statusCode).toBe(200);
  const mail = t.mailer.sent.slice(sentBefore).find((sent) => sent.to === email);
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error('no sign-in code was mailed');
  return code;
}

describe('the device cookie', () => {
  it('is HttpOnly, SameSite=Strict, sent only to the auth routes, and Secure over https', async () => {
    const owner = await registerUser(t.app);
    const plain = await login({ email: owner.user.email, password: owner.password, address: newAddress() });
    const line = String(plain.headers['set-cookie']);
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Strict/);
    expect(line).toMatch(/Path=\/api\/auth/);
    expect(line).toMatch(/Max-Age=15552000/);
    expect(line).not.toMatch(/Secure/);

    expect(deviceCookieHeader('value', true)).toMatch(/; Secure$/);
  });
});

describe('a spent account budget', () => {
  it('still lets the owner in from a browser that signed in before, and rotates its cookie', async () => {
    const owner = await registerUser(t.app);
    const home = newAddress();
    const first = await login({ email: owner.user.email, password: owner.password, address: home });
    expect(first.statusCode).toBe(200);
    const cookie = deviceCookie(first);

    await spendAccountBudget(owner.user.email);

    const known = await login({ email: owner.user.email, password: owner.password, address: home, cookie });
    expect(known.statusCode).toBe(200);
    expect(deviceCookie(known)).not.toBe(cookie);
    // From a new address too: the browser is what is known, not where it is.
    const travelling = await login({
      email: owner.user.email,
      password: owner.password,
      address: newAddress(),
      cookie,
    });
    expect(travelling.statusCode).toBe(200);
  });

  it('refuses a new browser with LOGIN_ACCOUNT_LIMITED, and lets it in once with a mailed code', async () => {
    const owner = await registerUser(t.app);
    await spendAccountBudget(owner.user.email);

    const address = newAddress();
    const refused = await login({ email: owner.user.email, password: owner.password, address });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('LOGIN_ACCOUNT_LIMITED');
    expect(refused.json().message).toMatch(/sign-in code/);

    const code = await askCode(owner.user.email);
    const admitted = await login({ email: owner.user.email, password: owner.password, address, code });
    expect(admitted.statusCode).toBe(200);
    deviceCookie(admitted);

    const again = await login({ email: owner.user.email, password: owner.password, address: newAddress(), code });
    expect(again.statusCode).toBe(429);
  });

  it("does not let another account's device cookie, or a forged one, past the budget", async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const othersCookie = deviceCookie(
      await login({ email: other.user.email, password: other.password, address: newAddress() }),
    );
    await spendAccountBudget(owner.user.email);

    const [, userId, deviceId, expires] = othersCookie.split('=')[1]!.split('.');
    const forged = `adpilot_device=v1.${owner.user.id}.${deviceId}.${expires}.${'A'.repeat(43)}`;
    for (const cookie of [othersCookie, forged, `adpilot_device=v1.${userId}`]) {
      const response = await login({
        email: owner.user.email,
        password: owner.password,
        address: newAddress(),
        cookie,
      });
      expect(response.statusCode).toBe(429);
    }
  });
});

describe('the sign-in code', () => {
  it('lets exactly one of parallel sign-ins with it in', async () => {
    const owner = await registerUser(t.app);
    await spendAccountBudget(owner.user.email);
    const code = await askCode(owner.user.email);

    const responses = await Promise.all(
      Array.from({ length: 4 }, () =>
        login({ email: owner.user.email, password: owner.password, address: newAddress(), code }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 401)).toBe(true);
  });

  it('counts a wrong code as a failure against the account budget', async () => {
    const owner = await registerUser(t.app);
    const mailed = await askCode(owner.user.email);
    const wrong = mailed === '000000' ? '111111' : '000000';
    // 10 addresses × 5 attempts with a wrong code and the right password: each one spends the account's budget.
    const attempts = Array.from({ length: 10 }, newAddress).flatMap((address) =>
      Array.from({ length: 5 }, () => ({ email: owner.user.email, password: owner.password, address, code: wrong })),
    );
    const statuses = (await Promise.all(attempts.map(login))).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(50);
    const next = await login({ email: owner.user.email, password: owner.password, address: newAddress() });
    expect(next.json().code).toBe('LOGIN_ACCOUNT_LIMITED');
  });

  it('expires after 10 minutes', async () => {
    const owner = await registerUser(t.app);
    await spendAccountBudget(owner.user.email);
    const code = await askCode(owner.user.email);
    t.clock.advance(10 * 60 * 1000 + 1);
    const late = await login({ email: owner.user.email, password: owner.password, address: newAddress(), code });
    expect(late.statusCode).toBe(429);
  });

  it('is sent at most 3 times an hour per account, and answers alike for unknown addresses', async () => {
    const owner = await registerUser(t.app);
    for (let i = 0; i < 3; i += 1) await askCode(owner.user.email);
    const fourth = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login-code',
      remoteAddress: newAddress(),
      payload: { email: owner.user.email },
    });
    expect(fourth.statusCode).toBe(429);

    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login-code',
      remoteAddress: newAddress(),
      payload: { email: `nobody-${Date.now()}@example.com` },
    });
    expect(unknown.statusCode).toBe(200);
  });

  it('is stored only as a keyed hash', async () => {
    const owner = await registerUser(t.app);
    const code = await askCode(owner.user.email);
    const stored = await t.inspect((db) => db.query.loginCodes.findMany());
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.some((row) => row.codeHash.includes(code))).toBe(false);
  });
});

describe('strangers', () => {
  it('stay held to the pair limit even with a device cookie of the account', async () => {
    const owner = await registerUser(t.app);
    const address = newAddress();
    const cookie = deviceCookie(await login({ email: owner.user.email, password: owner.password, address }));
    for (let i = 0; i < 5; i += 1) {
      expect((await login({ email: owner.user.email, password: WRONG, address, cookie })).statusCode).toBe(401);
    }
    expect((await login({ email: owner.user.email, password: owner.password, address, cookie })).statusCode).toBe(429);
  });
});
