import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIns, WRONG_PASSWORD as WRONG } from '../../test/login-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

/** Sign-in limits under concurrency and against lockout abuse (ADR 0018). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const signIn = signIns(() => t, '198.51');
const { newAddress, parallel } = signIn;
const login = (email: string, password: string, address: string) => signIn.login({ email, password, address });

/** 429 answers are refused before any password check. */
const checked = (statuses: number[]) => statuses.filter((status) => status !== 429).length;

async function resetPassword(email: string, password: string): Promise<void> {
  const asked = await t.app.inject({
    method: 'POST',
    url: '/api/auth/forgot-password',
    remoteAddress: newAddress(),
    payload: { email },
  });
  expect(asked.statusCode).toBe(200);
  const mail = t.mailer.sent.findLast((sent) => sent.to === email);
  const token = decodeURIComponent(/reset-password\?token=(\S+)/.exec(mail?.text ?? '')?.[1] ?? '');
  const reset = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });
  expect(reset.statusCode).toBe(200);
}

describe('concurrent guesses', () => {
  it('checks at most 5 of 25 parallel guesses on one account from one address', async () => {
    const owner = await registerUser(t.app);
    const address = newAddress();
    const guesses = Array.from({ length: 25 }, (_, i) => ({
      email: owner.user.email,
      password: i === 20 ? owner.password : `${WRONG}${i}`,
      address,
    }));
    const statuses = await parallel(guesses);
    expect(checked(statuses)).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(20);
    expect(statuses.every((status) => [200, 401, 429].includes(status))).toBe(true);
  });

  it('checks at most 30 of 45 parallel guesses from one address spread over many accounts', async () => {
    const address = newAddress();
    const guesses = Array.from({ length: 45 }, (_, i) => ({
      email: `spray-${i}-${Date.now()}@example.com`,
      password: WRONG,
      address,
    }));
    const statuses = await parallel(guesses);
    expect(checked(statuses)).toBeLessThanOrEqual(30);
    expect(checked(statuses)).toBeGreaterThan(0);
  });
});

describe('lockout abuse', () => {
  it("an attacker's failures from one address do not lock the owner out at another", async () => {
    const owner = await registerUser(t.app);
    const attacker = newAddress();
    const statuses = await parallel(
      Array.from({ length: 8 }, () => ({ email: owner.user.email, password: WRONG, address: attacker })),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    const blocked = await login(owner.user.email, owner.password, attacker);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    expect((await login(owner.user.email, owner.password, newAddress())).statusCode).toBe(200);
  });

  it('a password reset lifts the lock on the locked address', async () => {
    const owner = await registerUser(t.app);
    const address = newAddress();
    await parallel(Array.from({ length: 6 }, () => ({ email: owner.user.email, password: WRONG, address })));
    expect((await login(owner.user.email, owner.password, address)).statusCode).toBe(429);

    await resetPassword(owner.user.email, 'N3w-Password');
    expect((await login(owner.user.email, 'N3w-Password', address)).statusCode).toBe(200);
  });

  it('a global budget of 50 per account bounds guessing from many addresses, and a reset lifts it', async () => {
    const owner = await registerUser(t.app);
    // 14 addresses × 5 guesses: each address stays within its own limit, the account's budget does not.
    const guesses = Array.from({ length: 14 }, newAddress).flatMap((address) =>
      Array.from({ length: 5 }, () => ({ email: owner.user.email, password: WRONG, address })),
    );
    const statuses = await parallel(guesses);
    expect(checked(statuses)).toBe(50);
    // The price of the bound: the owner waits for the window too, at any address, until a reset.
    expect((await login(owner.user.email, owner.password, newAddress())).statusCode).toBe(429);

    await resetPassword(owner.user.email, 'N3w-Password');
    expect((await login(owner.user.email, 'N3w-Password', newAddress())).statusCode).toBe(200);
  });

  it("the owner's own successful sign-ins spend no budget", async () => {
    const owner = await registerUser(t.app);
    const address = newAddress();
    for (let i = 0; i < 35; i += 1) {
      expect((await login(owner.user.email, owner.password, address)).statusCode).toBe(200);
    }
  });

  it('a success forgives the typos made from the same address', async () => {
    const owner = await registerUser(t.app);
    const address = newAddress();
    for (let i = 0; i < 4; i += 1) expect((await login(owner.user.email, WRONG, address)).statusCode).toBe(401);
    expect((await login(owner.user.email, owner.password, address)).statusCode).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await login(owner.user.email, WRONG, address)).statusCode).toBe(401);
    expect((await login(owner.user.email, owner.password, address)).statusCode).toBe(429);
  });
});
